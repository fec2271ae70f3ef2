"""One vocabulary for article measures: Focal's, trec_eval's and ir_measures' names, each read
to one definition, whatever engine or output format evaluates it.

`resolve` reads a name in every spelling at once: trec_eval's (`map`, `P.10`, `ndcg_cut.10`),
Focal's (`MAP`, `P@10`) and ir_measures' strings (`AP`, `nDCG@10`, `R@100`, `RR@10`,
`P(rel=2)@5`, `Judged@10`; MacAvaney et al., ECIR 2022). A name that carries its own options
(a relevance level `rel=`, `RR@k`'s cut-off, which is trec_eval's `-M k` on `recip_rank`) or
that trec_eval lacks (`Judged@k`) is a `Definition` apart from the call's options, so that
`P(rel=2)@5` and `P@5` may stand side by side; the rest read as trec_eval's `-m` values
(`names.parse_trec`). Focal's article gain (the relevant fraction of an article, spec
section 3) is not trec_eval's grade: it has its own name, `nDCG(gain=fraction)@k`, declared in
`registry.declarations`; `nDCG@k` is always trec_eval's `ndcg_cut.k`.

`listing` is the registry as `focal measures` prints it: name, aliases, definition, reference.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from focal.evaluation.measures.registry.declarations import (
    ARTICLE_MEASURES,
    ELEMENT_MEASURES,
    MEASURES,
)
from focal.evaluation.measures.registry.names import UnknownMeasure, parse, split
from focal.evaluation.measures.trec_eval.families import declarations as trec

# ir_measures' names that take `rel=`: the trec_eval family each names (relevance level -l).
_REL_FAMILIES = {
    "P": "P", "R": "recall", "AP": "map", "RR": "recip_rank", "Rprec": "Rprec",
    "Bpref": "bpref", "Success": "success", "SetP": "set_P", "SetR": "set_recall",
    "SetF": "set_F", "NumRel": "num_rel", "NumRelRet": "num_rel_ret", "IPrec": "iprec_at_recall",
    "map": "map", "MAP": "map",
}  # fmt: skip
JUDGED = "Judged"
FRACTION_NDCG = "nDCG(gain=fraction)@k"


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
        arguments = dict(term.arguments)
        at = _cutoff(text, term.at)
        if term.base == "nDCG" and arguments == {"gain": "fraction"} and at is not None:
            return Definition(text, FRACTION_NDCG, at, own_options=True)
        if term.base == JUDGED and not arguments and at is not None:
            return Definition(text, JUDGED, at, own_options=True)
        if term.base == "RR" and set(arguments) <= {"rel"} and term.at is not None:
            level = _level(text, arguments)
            return Definition(text, "recip_rank", None, level, int(at or 0), own_options=True)
        if arguments and term.base in _REL_FAMILIES and set(arguments) == {"rel"}:
            base = None if term.at is None else resolve(f"{term.base}@{term.at}")
            family = base.family if base else _REL_FAMILIES[term.base]
            parameter = base.parameter if base else None
            return Definition(text, family, parameter, _level(text, arguments), own_options=True)
    request = parse(text, "trec")
    given = request.parameters or ()
    if len(given) > 1 or request.measure in trec.SETS:
        return Definition(text, request.measure, None)  # a list or a set: read by parse_trec
    return Definition(text, request.measure, given[0] if given else None)


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


def same_measure(a: str, b: str) -> bool:
    """Whether two names mean one measure (`AP` and `map`, `nDCG@10` and `ndcg_cut.10`).

    >>> same_measure("AP", "map"), same_measure("nDCG@10", "nDCG(gain=fraction)@10")
    (True, False)
    """
    first, second = resolve(a), resolve(b)
    return (first.family, first.parameter, first.level, first.max_docs) == (
        second.family, second.parameter, second.level, second.max_docs,
    )  # fmt: skip


def asked_rows(names: Sequence[str], printed: Sequence[str]) -> list[tuple[str, str]]:
    """(name asked for, printed row) pairs: a name is its own row (`MAP`, `P(rel=2)@5`) or its
    trec_eval row (`AP` -> `map`); a name printing several rows (`P`, `official`) gives each;
    a name no printed row answers is refused (UnknownMeasure).

    >>> asked_rows(["AP", "P(rel=2)@5", "P.5,10"], ["map", "P_5", "P_10", "P(rel=2)@5"])
    [('AP', 'map'), ('P(rel=2)@5', 'P(rel=2)@5'), ('P_5', 'P_5'), ('P_10', 'P_10')]
    """
    from focal.evaluation.measures.registry.names import parse_trec

    pairs: list[tuple[str, str]] = []
    for name in names:
        if name in printed:
            pairs.append((name, name))
            continue
        try:
            rows = [row.name for row in parse_trec([name]).rows() if row.name in printed]
        except ValueError:
            rows = []
        if not rows:
            shown = ", ".join(printed[:12]) + (", ..." if len(printed) > 12 else "")
            raise UnknownMeasure(f"no values of measure {name}: the rows are {shown}")
        if len(rows) == 1 and name != rows[0]:
            pairs.append((name, rows[0]))
        else:
            pairs.extend((row, row) for row in rows)
    return pairs


@dataclass(frozen=True)
class Entry:
    """One line of `focal measures`."""

    name: str
    aliases: str
    definition: str
    reference: str


_TREC_DEFINITIONS = {
    "num_q": "topics evaluated", "num_ret": "documents retrieved", "num_rel": "relevant documents",
    "num_rel_ret": "relevant documents retrieved", "map": "mean of AP = Σ_{rel d_r} P@r / R",
    "gm_map": "geometric mean of AP", "Rprec": "precision at rank R", "bpref": "binary preference",
    "recip_rank": "1 / rank of the first relevant document",
    "iprec_at_recall": "interpolated precision at recall x", "P": "relevant in ranks 1..k / k",
    "recall": "relevant in ranks 1..k / R", "ndcg": "nDCG over the whole ranking, gain = grade",
    "ndcg_cut": "nDCG@k, gain = the qrels grade", "map_cut": "AP of ranks 1..k",
    "success": "1 if a relevant document is in ranks 1..k", "set_P": "precision of the set",
    "set_recall": "recall of the set", "set_F": "F-measure of the set",
}  # fmt: skip


def listing() -> list[Entry]:
    """The registry of article measures, trec_eval's families and the extra ir_measures names,
    then the passage and element measures, as `focal measures` prints them.

    >>> next(e for e in listing() if e.name == "ndcg_cut").aliases
    'nDCG@k'
    """
    entries = []
    for measure in trec.TREC_MEASURES:
        definition = _TREC_DEFINITIONS.get(measure.name, "trec_eval's " + measure.name)
        aliases = " ".join(measure.aliases)
        entries.append(Entry(measure.name, aliases, definition, "trec_eval 10 (measures.c)"))
    entries.append(Entry("Judged@k", "", "documents of ranks 1..k in the qrels / documents there",
                         "ir_measures"))  # fmt: skip
    entries.append(Entry("RR@k", "RR(rel=g)@k", "recip_rank of ranks 1..k (trec_eval -M k)",
                         "ir_measures"))  # fmt: skip
    entries.append(Entry("X(rel=g)", "P(rel=2)@5, AP(rel=2)", "X with grades >= g relevant "
                         "(trec_eval -l g)", "ir_measures"))  # fmt: skip
    for declared in (*MEASURES, *ELEMENT_MEASURES):  # Focal's other article names: aliases
        if declared.name == FRACTION_NDCG or declared not in ARTICLE_MEASURES:
            aliases = declared.all_name or ""
            name = declared.name + (" (elements)" if declared in ELEMENT_MEASURES else "")
            entries.append(Entry(name, aliases, declared.formula,
                                 short_reference(declared.reference)))  # fmt: skip
    return entries


def short_reference(reference: str) -> str:
    """A declaration's reference as a table cell: first author and year.

    >>> short_reference("J. Kamps, J. Pehcevski: INEX 2007 Evaluation Measures. LNCS 4862, 2008")
    'Kamps et al. 2007'
    """
    if reference.startswith("C. Buckley et al.: trec_eval"):
        return "trec_eval; Järvelin & Kekäläinen 2002"
    authors = reference.split(":")[0]
    surname = authors.split(",")[0].split()[-1] if authors.split() else reference
    year = re.search(r"\b(19|20)\d\d\b", reference)
    more = " et al." if "," in authors or "&" in authors or " and " in authors else ""
    return f"{surname}{more}{' ' + year[0] if year else ''}"
