"""The one grammar of measure names, and each vocabulary's reading of it.

A name is a base, then optionally ir_measures' arguments `(rel=2)`, a parameter after `@`
(`P@10`, `nxCG@k`, `IPrec@0.5`), a curve `[x]` (`inex_eval[x]`), or trec_eval's parameters after
the first dot (`P.5,10`, `iprec_at_recall.0.1,0.5`, `set_F.0.5`). `split` reads that syntax;
`parse` finds the declaration the name stands for in one vocabulary, with its parameters
(trec_eval's parameters read with C's readers, `registry.c_numbers`).

The vocabulary is explicit because one spelling may name two measures:
- `articles`: Focal's article measures on FOL qrels (MAP, P@k, nDCG(gain=fraction)@k, Rprec,
  bpref), the row named as typed; that nDCG's gain is the relevant fraction of the article
  (`articles.topic`), hence its own name.
- `trec`: trec_eval's families and sets (`trec_eval.families.declarations`), with Focal's and
  ir_measures' spellings as aliases; nDCG's gain is the qrels grade, so `nDCG@10` is `ndcg_cut.10`,
  in
  every vocabulary and output format (`registry.vocabulary` reads all spellings at once).
- `elements`: element measures (spec section 5): P@k, overlap@k, nxCG@k (`k` itself for the
  default cut-offs), inex_eval, inex_eval[x], inex_eval_ng, inex_eval_ng[x], MAep.

A name nobody declares is refused with the vocabulary's list and the close spellings
(`difflib`); a declared name that no engine computes is refused as such (`NotProvided`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from focal.evaluation.measures.registry.c_numbers import (
    c_atof as c_atof,  # for trec_eval.engine.prefs
)
from focal.evaluation.measures.registry.c_numbers import c_atol, c_pairs
from focal.evaluation.measures.registry.declarations import ARTICLE_MEASURES, ELEMENT_MEASURES
from focal.evaluation.measures.trec_eval.families import declarations as trec

Vocabulary = Literal["articles", "trec", "elements"]
VOCABULARIES: tuple[Vocabulary, ...] = ("articles", "trec", "elements")
DEFAULTS: dict[Vocabulary, tuple[str, ...]] = {
    "articles": ("MAP", "P@5", "P@10", "nDCG(gain=fraction)@10", "Rprec", "bpref"),
    "trec": ("official",),
    "elements": ("P@k", "overlap@k"),
}
_TERM = re.compile(
    r"^(?P<base>[A-Za-z0-9_]+)(?:\((?P<arguments>[^()]*)\))?(?:@(?P<at>[A-Za-z0-9_.]+))?"
    r"(?P<curve>\[x\])?(?:\.(?P<dotted>.*))?$",
    re.DOTALL,
)
_CUT = {"articles": re.compile(r"^\d+$"), "elements": re.compile(r"^(k|[1-9][0-9]*)$")}
_DECLARED = {
    "articles": {m.name: m for m in ARTICLE_MEASURES},
    "elements": {m.name: m for m in ELEMENT_MEASURES},
}
_UNKNOWN = {
    "articles": "unknown article measure {!r}: use MAP, P@k, nDCG(gain=fraction)@k, Rprec, bpref",
    "elements": "unknown element measure {!r}: P@k, overlap@k, nxCG@k (or one k: P@10), "
    "inex_eval, inex_eval[x], inex_eval_ng, inex_eval_ng[x], MAep",
    "trec": "unknown measure {!r}: known are {}",
}
_ALIASES = {alias: m for m in trec.TREC_MEASURES for alias in m.aliases}


class UnknownMeasure(ValueError):
    """A name no declaration of the vocabulary answers to."""


class NotProvided(ValueError):
    """A declared name that no engine computes (yet)."""


@dataclass(frozen=True)
class Term:
    """A name split by the grammar (`split`), before any vocabulary reads it."""

    text: str
    base: str
    arguments: tuple[tuple[str, str], ...] = ()  # ir_measures' `(rel=2)`
    at: str | None = None  # after `@`
    curve: bool = False  # `[x]`
    dotted: str | None = None  # after the first `.`

    @property
    def bare(self) -> bool:
        return not self.arguments and self.at is None and not self.curve and self.dotted is None


@dataclass(frozen=True)
class Request:
    """What a name asks for: the declaration (`measure`, its name in `vocabulary`) and the
    parameters given (None: the declared defaults; `printable`: as typed, for row names)."""

    text: str
    vocabulary: Vocabulary
    measure: str
    parameters: tuple[float, ...] | None = None
    curve: bool = False
    printable: str | None = None


def split(text: str) -> Term | None:
    """The grammar: None when `text` is no measure name at all.

    >>> split("P(rel=2)@5")
    Term(text='P(rel=2)@5', base='P', arguments=(('rel', '2'),), at='5', curve=False, dotted=None)
    >>> split("iprec_at_recall.0.1,0.5").dotted
    '0.1,0.5'
    """
    match = _TERM.match(text)
    if match is None:
        return None
    arguments: list[tuple[str, str]] = []
    for pair in filter(None, (match["arguments"] or "").split(",")):
        key, equals, value = pair.partition("=")
        if not equals:
            return None
        arguments.append((key.strip(), value.strip()))
    return Term(text, match["base"], tuple(arguments), match["at"], bool(match["curve"]),
                match["dotted"])  # fmt: skip


def parse(text: str, vocabulary: Vocabulary) -> Request:
    """The declaration `text` names in `vocabulary`, with its parameters.

    >>> [parse(name, "trec").measure for name in ("map", "MAP", "AP")]
    ['map', 'map', 'map']
    >>> parse("nDCG@10", "trec").measure, parse("nDCG(gain=fraction)@10", "articles").measure
    ('ndcg_cut', 'nDCG(gain=fraction)@k')
    """
    term = split(text)
    if vocabulary == "trec":
        return _trec(text, term)
    if vocabulary not in _DECLARED:
        raise ValueError(f"unknown vocabulary {vocabulary!r}: one of {', '.join(VOCABULARIES)}")
    declared = _DECLARED[vocabulary]
    if term is not None and term.dotted is None:
        stem = term.base + _arguments(term)
        if term.arguments and f"{stem}@k" not in declared:
            raise UnknownMeasure(_unknown(text, vocabulary))
        if term.curve and term.at is None and term.base in declared and vocabulary == "elements":
            if term.base.startswith("inex_eval"):
                return Request(text, vocabulary, term.base, curve=True)
        elif term.at is not None and not term.curve and f"{stem}@k" in declared:
            if _CUT[vocabulary].match(term.at) and term.at.strip("0"):
                cut = None if term.at == "k" else (float(int(term.at)),)
                return Request(text, vocabulary, f"{stem}@k", cut)
        elif term.bare and term.base in declared:
            return Request(text, vocabulary, term.base)
    raise UnknownMeasure(_unknown(text, vocabulary))


def _arguments(term: Term) -> str:
    """ir_measures' arguments as a declared name spells them: `(gain=fraction)`."""
    if not term.arguments:
        return ""
    return "(" + ",".join(f"{key}={value}" for key, value in term.arguments) + ")"


def _trec(text: str, term: Term | None) -> Request:
    """trec_eval's names (`map`, `P.5,10`, sets, `runid`) and the aliases (`MAP`, `nDCG@10`)."""
    if term is None:
        raise UnknownMeasure(_unknown(text, "trec"))
    key = term.base + ("@k" if term.at is not None else "")
    if key in trec.NOT_PROVIDED or (term.arguments and key in _ALIASES):
        raise NotProvided(f"measure {text} is not provided by any engine for task articles")
    if term.base in trec.NOT_COMPUTED and term.at is None and not term.arguments:
        raise NotProvided(
            f"measure {text} is not provided by any engine for task articles "
            f"(trec_eval's {term.base} is not computed by Focal)"
        )
    alias = _ALIASES.get(key)
    if alias is not None and not term.curve and term.dotted is None and not term.arguments:
        return _trec_family(text, alias.name, term.at)
    if not term.bare and (term.at is not None or term.curve or term.arguments):
        raise UnknownMeasure(_unknown(text, "trec"))
    name, dotted = term.base, term.dotted
    if name in trec.SETS or name == "runid":
        if dotted is not None:
            raise ValueError(f"measure set {name!r} takes no parameters")
        return Request(text, "trec", name)
    if name not in trec.FAMILIES:
        raise UnknownMeasure(_unknown(text, "trec"))
    return _trec_family(text, name, dotted)


def _trec_family(text: str, name: str, params: str | None) -> Request:
    """Parameters read as trec_eval 10.0 reads them (`meas_init.c`): cut-offs with C's `atol`
    (`23.4` is 23), sorted, positive and distinct; levels with `atof`, sorted and distinct;
    coefficient lists (`utility`, `11pt_avg`, `relstring`, `set_F`) as typed; `name=value` pairs
    (gains per grade `1=3,2=9`, `p=0.8`) as typed. Rows name typed lists and pairs as typed."""
    if params is None:
        return Request(text, "trec", name)
    if trec.FAMILIES[name] is None:
        raise ValueError(f"measure {name!r} takes no parameters")
    if not params:
        raise ValueError(f"improper measure in parameter {name!r} (nothing after the dot)")
    if name in trec.PAIR_FAMILIES:
        pairs = c_pairs(params)
        return Request(text, "trec", name, tuple(v for _, v in pairs), printable=params)
    if name in trec.CUTOFF_FAMILIES:
        values = sorted(float(c_atol(p)) for p in params.split(","))
        if values[0] <= 0:
            raise ValueError(f"cut-offs of {name} must be positive integers, found {params!r}")
    else:
        values = [c_atof(p) for p in params.split(",")]
    if name == "utility" and len(values) != 4:
        raise ValueError(f"utility takes 4 coefficients, found {params!r}")
    if name in trec.PARAMETER_LISTS:
        return Request(text, "trec", name, tuple(values), printable=params)
    values.sort()
    if len(set(values)) != len(values):
        raise ValueError(f"duplicate cut-offs in {name}.{params} (trec_eval refuses them)")
    return Request(text, "trec", name, tuple(values))


def parse_trec(specs: Sequence[str]) -> trec.Selection:
    """`-m` values in the trec vocabulary (each may be repeated or carry `.params`), as the
    rows trec_eval prints; empty: official.

    >>> [row.name for row in parse_trec(["P.10,5", "map"]).rows()]
    ['map', 'P_5', 'P_10']
    >>> parse_trec(["official"]).rows()[-1].name
    'P_1000'
    >>> [r.name for r in parse_trec(["nDCG@10", "P@3"]).rows()]
    ['P_3', 'ndcg_cut_10']
    """
    selection = trec.Selection()
    given: set[str] = set()
    for spec in specs or DEFAULTS["trec"]:
        request = parse(spec, "trec")
        name = request.measure
        if name in trec.SETS:
            selection.runid = True
            for member in trec.SETS[name]:
                if member in trec.FAMILIES:
                    selection.families.setdefault(member, None)
                elif member != "runid" and member not in selection.left_out:
                    selection.left_out.append(member)
        elif name == "runid":
            selection.runid = True
        elif request.parameters is None or name in given:
            selection.families.setdefault(name, None)
        else:  # trec_eval takes a family's parameters from its first `-m name.params`
            given.add(name)
            if request.printable is not None:
                selection.printable[name] = request.printable
            if name in trec.PAIR_FAMILIES:
                selection.pairs[name] = tuple(c_pairs(request.printable or ""))
            selection.families[name] = request.parameters
    return selection


def claims(text: str, vocabulary: Vocabulary) -> bool:
    """Whether `text` is meant in `vocabulary`: a declared name, or a declared `X@k` stem with
    something after the `@` (`P@0` is claimed by `articles`, then refused there).

    >>> claims("P@10", "articles"), claims("MAP", "articles"), claims("map", "articles")
    (True, True, False)
    """
    declared = _DECLARED[vocabulary]
    stems = tuple(name[: -len("k")] for name in declared if name.endswith("@k"))
    return text in declared or text.startswith(stems)


def element_rows(selection: Sequence[str]) -> list[str]:
    """The printed rows of an element selection, in its order, each once: `k` stands for the
    declared cut-offs, `[x]` for the declared recall levels.

    >>> element_rows(["P@k", "MAep", "P@10"])[:3], element_rows(["nxCG@k"])
    (['P@5', 'P@10', 'P@20'], ['nxCG@5', 'nxCG@10', 'nxCG@25', 'nxCG@50'])
    """
    out: dict[str, None] = {}
    for name in selection:
        request = parse(name, "elements")
        declared = _DECLARED["elements"][request.measure]
        if request.measure.endswith("@k"):
            stem = request.measure[: -len("@k")]
            cuts = request.parameters or declared.defaults
            out.update((f"{stem}@{int(k)}", None) for k in cuts)
        elif request.curve:
            out.update((f"{request.measure}[{level:.2f}]", None) for level in declared.defaults)
        else:
            out[request.measure] = None
    return list(out)


def _unknown(text: str, vocabulary: Vocabulary) -> str:
    """The refusal of an unknown name: what the vocabulary knows, and the closest spellings."""
    if vocabulary == "trec":
        message = _UNKNOWN["trec"].format(text, trec.known_names())
        known = [*trec.FAMILIES, *trec.SETS, *_ALIASES]
    else:
        message = _UNKNOWN[vocabulary].format(text)
        known = list(_DECLARED[vocabulary])
    close = difflib.get_close_matches(text, known, n=3, cutoff=0.6)
    return message + (f"; close: {', '.join(close)}" if close else "")
