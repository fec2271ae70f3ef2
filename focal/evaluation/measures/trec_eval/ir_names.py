"""ir_measures' names with options of their own, read as trec_eval families with options:
`X(rel=g)` (trec_eval's -l g), `judged_only=True` (-J), `nDCG(gains={...})` (grades mapped),
`SetP(relative=True)`, `SetF(beta=x)`, `NumRet(rel=g)`, `IPrec@r`, `RR@k` (-M k on
recip_rank), and the measures trec_eval lacks: `Judged@k`, gdeval.pl's `nDCG(dcg='exp-log2')@k`
and `ERR@k`, trectools' `RBP(p=…, rel=…)@k` and the compat provider's `Compat(p=…,
normalize=…)` (`ir_providers`; MacAvaney et al., ECIR 2022, for ir_measures' strings;
docs/measures.md, "ir_measures' measures"). `trec_eval.names.resolve` reads every other
spelling; this module gives it the `Definition` of a name with options, and the name itself
for what is not one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from focal.evaluation.measures.grammar import NotProvided, Term, UnknownMeasure
from focal.evaluation.measures.trec_eval.families import declarations as trec

JUDGED = "Judged"
GDEVAL_NDCG, GDEVAL_ERR = "nDCG(dcg=exp-log2)@k", "ERR@k"  # gdeval.pl's (`top_ranks.gdeval`)
FRACTION_NDCG = "nDCG(gain=fraction)@k"
TRECTOOLS_RBP, COMPAT = "RBP(p,rel)@k", "Compat(p,normalize)"  # `ir_providers`' two


@dataclass(frozen=True)
class Definition:
    """What one name means for articles: a trec_eval family and its parameter, and the options
    the name carries (None: the call's), or `Judged` (judged fraction of the top `parameter`)."""

    text: str
    family: str
    parameter: float | None = None
    level: int | None = None  # ir_measures' rel=: lowest grade that counts as relevant
    max_docs: int | None = None  # RR@k: only the first k documents count
    own_options: bool = False  # computed apart from the call's `-m` selection
    judged_only: bool = False  # ir_measures' judged_only=True: trec_eval's -J
    gains: tuple[tuple[int, int], ...] = ()  # ir_measures' gains={grade: gain}: grades mapped
    persistence: float | None = None  # RBP's and Compat's p= (None: ir_measures' default)
    normalize: bool = True  # Compat's normalize=

    @property
    def trec_name(self) -> str:
        """The trec_eval `-m` value of the family and parameter (`P.5`, `map`)."""
        if self.parameter is None:
            return self.family
        value = self.parameter
        return f"{self.family}.{int(value) if value == int(value) else value}"


Resolve = Callable[[str], Definition]  # `trec_eval.names.resolve`: a plain name's definition


def with_own_options(term: Term, resolve: Resolve) -> Definition | None:
    """The definition of a name that carries options of its own (`nDCG(gain=fraction)@k`,
    `Judged@k`, `RR@k`, ir_measures' arguments: `X(rel=g)`, `judged_only=True`,
    `nDCG(gains={0:0,1:1,2:3})`, `SetP(relative=True)`, `SetF(beta=0.5)`, `NumRet(rel=1)`,
    `IPrec@0.5`), None for any other. ir_measures' arguments at their defaults (`rel=1`,
    `judged_only=False`, `dcg='log2'`, `beta=1`, `relative=False`) change nothing."""
    text, arguments = term.text, dict(term.arguments)
    if term.base == "nDCG" and arguments == {"gain": "fraction"}:
        at = _cutoff(text, term.at)
        return None if at is None else Definition(text, FRACTION_NDCG, at, own_options=True)
    if term.base == JUDGED and not arguments and term.at is not None:
        return Definition(text, JUDGED, _cutoff(text, term.at), own_options=True)
    if term.base == "IPrec" and term.at is not None:
        return _own(term, arguments, "iprec_at_recall", _recall(text, term.at))
    if term.base == "RR" and term.at is not None:
        own = _own(term, arguments, "recip_rank", None)
        return replace(own, max_docs=int(_cutoff(text, term.at) or 0), own_options=True)
    chosen = _options_apart(term, arguments)
    if chosen is not None:
        return chosen
    if term.base == "ERR" and not arguments and term.at is not None:
        return Definition(text, GDEVAL_ERR, _cutoff(text, term.at), own_options=True)
    if term.base == "nDCG" and arguments:
        return _ndcg(term, arguments, resolve)
    if arguments and term.base in trec.REL_FAMILIES:
        base = None if term.at is None else resolve(f"{term.base}@{term.at}")
        family = base.family if base else trec.REL_FAMILIES[term.base]
        return _own(term, arguments, family, base.parameter if base else None)
    return None


def _options_apart(term: Term, arguments: dict[str, str]) -> Definition | None:
    """trectools' RBP and the compat provider's Compat (any arguments, none), and the set
    families' options (`_set_options`); None for any other name."""
    if term.base in ("RBP", "Compat"):
        return _provided_apart(term, arguments)
    if term.base in ("SetP", "SetF", "NumRet") and arguments:
        return _set_options(term, arguments)
    return None


def _set_options(term: Term, arguments: dict[str, str]) -> Definition | None:
    """`SetP(relative=True)`, `SetF(beta=x)` and `NumRet(rel=g)` (ir_measures' `NumRelRet` is
    `NumRet(rel=1)`): another trec_eval family or parameter; None when only `rel=` or
    `judged_only=` remain (the family's own `X(rel=g)`)."""
    if term.base == "SetP" and arguments.pop("relative", "False") == "True":
        return _own(term, arguments, "set_relative_P", None, force=True)
    if term.base == "SetF" and "beta" in arguments:
        beta = _number(term.text, arguments.pop("beta"), "beta= takes a number")
        return _own(term, arguments, "set_F", beta, force=beta != 1.0)
    if term.base == "NumRet" and "rel" in arguments:
        return _own(term, arguments, "num_rel_ret", None, force=True)
    return None


def _provided_apart(term: Term, arguments: dict[str, str]) -> Definition:
    """trectools' `RBP(p=…, rel=…)@k` and the compat provider's `Compat(p=…, normalize=…)`
    (`ir_providers`): p a number from 0 to 1; Compat takes no cut-off."""
    text, rbp = term.text, term.base == "RBP"
    unknown_keys = set(arguments) - ({"p", "rel"} if rbp else {"p", "normalize"})
    if unknown_keys:
        raise UnknownMeasure(f"measure {text}: ir_measures' argument {sorted(unknown_keys)[0]}= "
                             "is not one this measure takes")  # fmt: skip
    p = None
    if "p" in arguments:
        p = _number(text, arguments["p"], "p= takes a persistence from 0 to 1")
        if not 0.0 <= p <= 1.0:
            raise UnknownMeasure(f"measure {text}: p= takes a persistence from 0 to 1")
    if rbp:
        return Definition(text, TRECTOOLS_RBP, _cutoff(text, term.at), _level(text, arguments),
                          own_options=True, persistence=p)  # fmt: skip
    if term.at is not None:
        raise UnknownMeasure(f"measure {text}: Compat takes no cut-off (ranks to the end)")
    normalize = arguments.get("normalize", "True")
    if normalize not in ("True", "False"):
        raise UnknownMeasure(f"measure {text}: normalize= takes True or False")
    return Definition(text, COMPAT, own_options=True, persistence=p,
                      normalize=normalize == "True")  # fmt: skip


def _ndcg(term: Term, arguments: dict[str, str], resolve: Resolve) -> Definition:
    """ir_measures' nDCG with arguments: `dcg='exp-log2'` alone is gdeval's (a cut-off
    needed), `gains={...}` maps the grades, `rel=` and `judged_only=` as every family's."""
    text = term.text
    dcg = arguments.pop("dcg", "'log2'").strip("'\"")
    if dcg == "exp-log2" and not arguments:
        if term.at is None:
            raise UnknownMeasure(f"measure {text}: gdeval's nDCG needs a cut-off (@k)")
        return Definition(text, GDEVAL_NDCG, _cutoff(text, term.at), own_options=True)
    if dcg != "log2":
        raise NotProvided(f"measure {text} is not provided by any engine for task articles "
                          "(nDCG's dcg= is 'log2' or, alone, 'exp-log2')")  # fmt: skip
    gains = _gains(text, arguments.pop("gains", ""))
    base = resolve(f"nDCG@{term.at}") if term.at is not None else None
    family, parameter = (base.family, base.parameter) if base else ("ndcg", None)
    own = _own(term, arguments, family, parameter, force=bool(gains))
    return replace(own, gains=gains) if gains else own


def _own(term: Term, arguments: dict[str, str], family: str, parameter: float | None,
         force: bool = False) -> Definition:  # fmt: skip
    """A family with ir_measures' `rel=` and `judged_only=` (the only arguments left)."""
    text = term.text
    unknown_keys = set(arguments) - {"rel", "judged_only"}
    if unknown_keys:
        raise UnknownMeasure(f"measure {text}: ir_measures' argument {sorted(unknown_keys)[0]}= "
                             "is not one this measure takes")  # fmt: skip
    judged = arguments.get("judged_only", "False")
    if judged not in ("True", "False"):
        raise UnknownMeasure(f"measure {text}: judged_only= takes True or False")
    level, judged_only = _level(text, arguments), judged == "True"
    own = force or judged_only or level is not None
    return Definition(text, family, parameter, level, own_options=own, judged_only=judged_only)


def _recall(text: str, at: str) -> float:
    """IPrec@r's recall level: a number from 0 to 1."""
    value = _number(text, at, "the level after @ is a recall level from 0 to 1")
    if not 0.0 <= value <= 1.0:
        raise UnknownMeasure(f"measure {text}: the level after @ is a recall level from 0 to 1")
    return value


def _number(text: str, value: str, expected: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise UnknownMeasure(f"measure {text}: {expected}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise UnknownMeasure(f"measure {text}: {expected}")
    return number


def _gains(text: str, value: str) -> tuple[tuple[int, int], ...]:
    """ir_measures' `gains={grade: gain, ...}`: whole numbers (the grades are mapped, as its
    pytrec_eval provider maps them); grades not named keep their own value."""
    if not value:
        return ()
    body = value.strip()
    if not (body.startswith("{") and body.endswith("}")):
        raise UnknownMeasure(f"measure {text}: gains= takes {{grade: gain, ...}}")
    pairs = []
    for item in filter(None, (part.strip() for part in body[1:-1].split(","))):
        grade, colon, gain = item.partition(":")
        try:
            pairs.append((int(grade), int(gain)))
        except ValueError:
            raise UnknownMeasure(f"measure {text}: gains= takes whole-number grades and gains "
                                 f"({{0:0,1:1,2:3}}), found {item!r}") from None  # fmt: skip
        if not colon:
            raise UnknownMeasure(f"measure {text}: gains= takes {{grade: gain, ...}}")
    return tuple(sorted(pairs))


def _cutoff(text: str, at: str | None) -> float | None:
    if at is None:
        return None
    if not at.isdigit() or int(at) < 1:
        raise UnknownMeasure(f"measure {text}: the cut-off after @ must be a positive integer")
    return float(int(at))


def _level(text: str, arguments: dict[str, str]) -> int | None:
    if "rel" not in arguments:
        return None
    value = arguments["rel"]
    if not value.isdigit():
        raise UnknownMeasure(f"measure {text}: rel= takes a grade (a whole number)")
    return int(value)
