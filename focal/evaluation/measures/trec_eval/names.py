"""trec_eval's vocabulary of measure names: trec_eval's own (`map`, `P.5,10`, sets, `runid`),
Focal's and ir_measures' spellings of its families (`MAP`, `nDCG@10`, `AP`), and ir_measures'
names that carry options of their own (`P(rel=2)@5`, `RR@10`, `Judged@10`).

`parse_name` reads one name (split by `measures.grammar`) as the family it stands for, with its
parameters read as trec_eval 10.0 reads them (`c_numbers`); `parse_trec` turns a `-m` list into
the rows trec_eval prints (`families.declarations.Selection`). Every spelling is declared with
its family (`TrecMeasure.focal`, `.ir_measures`, `.rel`), so nothing here names a family.

`resolve` reads a name for article evaluation in every spelling at once (MacAvaney et al., ECIR
2022, for ir_measures' strings): a name that carries its own options (a relevance level `rel=`,
`RR@k`'s cut-off, which is trec_eval's `-M k` on `recip_rank`) or that trec_eval lacks
(`Judged@k`) is a `Definition` apart from the call's options (`ir_names` reads them), so that
`P(rel=2)@5` and `P@5` may stand side by side; the rest read as trec_eval's `-m` values.
Focal's article gain (the relevant fraction of an article, spec section 3) is not trec_eval's
grade: it has its own name, `nDCG(gain=fraction)@k` (`registry.declarations`); `nDCG@k` is
always trec_eval's `ndcg_cut.k`.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

from focal.evaluation.formats.c_numbers import c_atof, c_atol, c_pairs
from focal.evaluation.measures.grammar import NotProvided, Request, Term, UnknownMeasure, split
from focal.evaluation.measures.trec_eval.families import declarations as trec
from focal.evaluation.measures.trec_eval.ir_names import FRACTION_NDCG as FRACTION_NDCG
from focal.evaluation.measures.trec_eval.ir_names import GDEVAL_ERR as GDEVAL_ERR
from focal.evaluation.measures.trec_eval.ir_names import GDEVAL_NDCG as GDEVAL_NDCG
from focal.evaluation.measures.trec_eval.ir_names import JUDGED as JUDGED
from focal.evaluation.measures.trec_eval.ir_names import Definition as Definition
from focal.evaluation.measures.trec_eval.ir_names import with_own_options

DEFAULT = ("official",)  # what an empty `-m` list asks for


def parse_name(text: str) -> Request:
    """The family (or set, or `runid`) `text` names, with its parameters.

    >>> [parse_name(name).measure for name in ("map", "MAP", "AP", "nDCG@10")]
    ['map', 'map', 'map', 'ndcg_cut']
    """
    term = split(text)
    if term is None:
        raise UnknownMeasure(unknown(text))
    key = term.base + ("@k" if term.at is not None else "")
    _refuse_not_provided(term, key)
    alias = trec.ALIASES.get(key)
    if alias is not None and not term.curve and term.dotted is None and not term.arguments:
        return _family(text, alias.name, term.at)
    if not term.bare and (term.at is not None or term.curve or term.arguments):
        raise UnknownMeasure(unknown(text))
    name, dotted = term.base, term.dotted
    if name in trec.SETS or name == "runid":
        if dotted is not None:
            raise ValueError(f"measure set {name!r} takes no parameters")
        return Request(text, "trec", name)
    if name not in trec.FAMILIES:
        raise UnknownMeasure(unknown(text))
    return _family(text, name, dotted)


def _refuse_not_provided(term: Term, key: str) -> None:
    """NotProvided for a name declared but computed by no engine: ir_measures' that trec_eval
    lacks, an alias with ir_measures' arguments, a trec_eval family Focal does not compute."""
    text = term.text
    if key in trec.NOT_PROVIDED or (term.arguments and key in trec.ALIASES):
        who = trec.COMPUTED_BY.get(key)
        raise NotProvided(f"measure {text} is not provided by any engine for task articles"
                          + (f" ({who} computes it)" if who else ""))  # fmt: skip
    if term.base in trec.NOT_COMPUTED and term.at is None and not term.arguments:
        raise NotProvided(
            f"measure {text} is not provided by any engine for task articles "
            f"(trec_eval's {term.base} is not computed by Focal)"
        )


def _family(text: str, name: str, params: str | None) -> Request:
    """Parameters read as trec_eval 10.0 reads them (`meas_init.c`), as the family declares
    them (`measure.Parameters`): cut-offs with C's `atol` (`23.4` is 23), sorted, positive and
    distinct; levels with `atof`, sorted and distinct; lists as typed; `name=value` pairs
    (gains per grade `1=3,2=9`, `p=0.8`) as typed. Rows name lists and pairs as typed."""
    if params is None:
        return Request(text, "trec", name)
    declared = trec.BY_NAME[name].parameters
    if declared is None:
        raise ValueError(f"measure {name!r} takes no parameters")
    if not params:
        raise ValueError(f"improper measure in parameter {name!r} (nothing after the dot)")
    if declared.kind == "pairs":
        pairs = c_pairs(params)
        return Request(text, "trec", name, tuple(v for _, v in pairs), printable=params)
    if declared.kind == "cutoffs":
        values = sorted(float(c_atol(p)) for p in params.split(","))
        if values[0] <= 0:
            raise ValueError(f"cut-offs of {name} must be positive integers, found {params!r}")
    else:
        values = [c_atof(p) for p in params.split(",")]
    if declared.length is not None and len(values) != declared.length:
        raise ValueError(f"{name} takes {declared.length} coefficients, found {params!r}")
    if declared.kind == "list":
        return Request(text, "trec", name, tuple(values), printable=params)
    values.sort()
    if len(set(values)) != len(values):
        raise ValueError(f"duplicate cut-offs in {name}.{params} (trec_eval refuses them)")
    return Request(text, "trec", name, tuple(values))


NOT_IN_9 = ("dcg", "ideal_dcg", "rbp", "rbp_resid", "unj")  # 10.0's additions (`measures.c`)


def parse_trec(specs: Sequence[str], version: int = 10) -> trec.Selection:
    """`-m` values in the trec vocabulary (each may be repeated or carry `.params`), as the
    rows trec_eval prints; empty: official. `version=9`: 9.0.7's measures, which lack
    `NOT_IN_9` (an unknown measure there, and no part of `all_trec`).

    >>> [row.name for row in parse_trec(["P.10,5", "map"]).rows()]
    ['map', 'P_5', 'P_10']
    >>> parse_trec(["official"]).rows()[-1].name
    'P_1000'
    >>> [r.name for r in parse_trec(["nDCG@10", "P@3"]).rows()]
    ['P_3', 'ndcg_cut_10']
    """
    selection = trec.Selection()
    given: set[str] = set()
    for spec in specs or DEFAULT:
        request = parse_name(spec)
        name = request.measure
        if version == 9 and name in NOT_IN_9:
            raise UnknownMeasure(f"{name!r} is a measure of trec_eval 10.0, not of 9.0.7")
        if name in trec.SETS:
            selection.runid = True
            for member in trec.SETS[name]:
                if version == 9 and member in NOT_IN_9:
                    continue
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
            if trec.BY_NAME[name].printed == "pairs":
                selection.pairs[name] = tuple(c_pairs(request.printable or ""))
            selection.families[name] = request.parameters
    return selection


def unknown(text: str) -> str:
    """The refusal of an unknown name: the closest spellings first, then what `-m` accepts."""
    known = [*trec.FAMILIES, *trec.SETS, *trec.ALIASES]
    close = difflib.get_close_matches(text, known, n=3, cutoff=0.6)
    closest = f" (closest: {', '.join(close)})" if close else ""
    return f"unknown measure {text!r}{closest}: known are {trec.known_names()}"


def resolve(text: str) -> Definition:
    """The one definition of an article measure name, in any spelling.

    >>> [resolve(n).trec_name for n in ("AP", "map", "MAP", "nDCG@10", "ndcg_cut.10", "R@100")]
    ['map', 'map', 'map', 'ndcg_cut.10', 'ndcg_cut.10', 'recall.100']
    >>> d = resolve("P(rel=2)@5")
    >>> d.trec_name, d.level, d.own_options
    ('P.5', 2, True)
    >>> d = resolve("RR@10")
    >>> d.trec_name, d.max_docs
    ('recip_rank', 10)
    >>> resolve("Judged@10").family, resolve("nDCG(gain=fraction)@10").family
    ('Judged', 'nDCG(gain=fraction)@k')
    """
    term = split(text)
    if term is not None and term.dotted is None and not term.curve:
        own = with_own_options(term, resolve)
        if own is not None:
            return own
    request = parse_name(text)
    given = request.parameters or ()
    if len(given) > 1 or request.measure in trec.SETS:
        return Definition(text, request.measure, None)  # a list or a set: read by parse_trec
    return Definition(text, request.measure, given[0] if given else None)


@dataclass
class Plan:
    """A `-m` list read for article evaluation: `plain`, the names read in the call's options
    (trec_eval's `-m` values), and `apart`, the names that carry options of their own."""

    plain: list[str] = field(default_factory=list)
    apart: list[Definition] = field(default_factory=list)
    fraction: list[str] = field(default_factory=list)  # Focal's fraction-gain nDCG names


def plan(names: Sequence[str]) -> Plan:
    """Sort a `-m` list into the names trec_eval's selection reads and those apart.

    >>> p = plan(["AP", "P(rel=2)@5", "Judged@10"])
    >>> p.plain, [d.text for d in p.apart]
    (['AP'], ['P(rel=2)@5', 'Judged@10'])
    """
    result = Plan()
    for name in names:
        definition = resolve(name)
        if definition.family == FRACTION_NDCG:
            result.fraction.append(name)
        elif definition.own_options:
            result.apart.append(definition)
        else:
            result.plain.append(name)
    return result
