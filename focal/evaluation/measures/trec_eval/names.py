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
(`Judged@k`) is a `Definition` apart from the call's options, so that `P(rel=2)@5` and `P@5`
may stand side by side; the rest read as trec_eval's `-m` values. Focal's article gain (the
relevant fraction of an article, spec section 3) is not trec_eval's grade: it has its own name,
`nDCG(gain=fraction)@k` (`registry.declarations`); `nDCG@k` is always trec_eval's `ndcg_cut.k`.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

from focal.evaluation.formats.c_numbers import c_atof, c_atol, c_pairs
from focal.evaluation.measures.grammar import NotProvided, Request, Term, UnknownMeasure, split
from focal.evaluation.measures.trec_eval.families import declarations as trec

DEFAULT = ("official",)  # what an empty `-m` list asks for
JUDGED = "Judged"
FRACTION_NDCG = "nDCG(gain=fraction)@k"


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
        raise NotProvided(f"measure {text} is not provided by any engine for task articles")
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
    for spec in specs or DEFAULT:
        request = parse_name(spec)
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
            if trec.BY_NAME[name].printed == "pairs":
                selection.pairs[name] = tuple(c_pairs(request.printable or ""))
            selection.families[name] = request.parameters
    return selection


def unknown(text: str) -> str:
    """The refusal of an unknown name: what `-m` accepts, and the closest spellings."""
    message = f"unknown measure {text!r}: known are {trec.known_names()}"
    known = [*trec.FAMILIES, *trec.SETS, *trec.ALIASES]
    close = difflib.get_close_matches(text, known, n=3, cutoff=0.6)
    return message + (f"; close: {', '.join(close)}" if close else "")


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

    @property
    def trec_name(self) -> str:
        """The trec_eval `-m` value of the family and parameter (`P.5`, `map`)."""
        if self.parameter is None:
            return self.family
        value = self.parameter
        return f"{self.family}.{int(value) if value == int(value) else value}"


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
        own = _with_own_options(term)
        if own is not None:
            return own
    request = parse_name(text)
    given = request.parameters or ()
    if len(given) > 1 or request.measure in trec.SETS:
        return Definition(text, request.measure, None)  # a list or a set: read by parse_trec
    return Definition(text, request.measure, given[0] if given else None)


def _with_own_options(term: Term) -> Definition | None:
    """The definition of a name that carries options of its own (`nDCG(gain=fraction)@k`,
    `Judged@k`, `RR@k`, `X(rel=g)`), None for any other."""
    text, arguments = term.text, dict(term.arguments)
    at = _cutoff(text, term.at)
    if term.base == "nDCG" and arguments == {"gain": "fraction"} and at is not None:
        return Definition(text, FRACTION_NDCG, at, own_options=True)
    if term.base == JUDGED and not arguments and at is not None:
        return Definition(text, JUDGED, at, own_options=True)
    if term.base == "RR" and set(arguments) <= {"rel"} and term.at is not None:
        level = _level(text, arguments)
        return Definition(text, "recip_rank", None, level, int(at or 0), own_options=True)
    if arguments and term.base in trec.REL_FAMILIES and set(arguments) == {"rel"}:
        base = None if term.at is None else resolve(f"{term.base}@{term.at}")
        family = base.family if base else trec.REL_FAMILIES[term.base]
        parameter = base.parameter if base else None
        return Definition(text, family, parameter, _level(text, arguments), own_options=True)
    return None


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
