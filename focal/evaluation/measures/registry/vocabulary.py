"""One vocabulary for article measures: Focal's, trec_eval's and ir_measures' names, each read
to one definition (`trec_eval.names.resolve`), whatever engine or output format evaluates it:
whether two names mean one measure (`same_measure`), which printed rows answer the names asked
for (`asked_rows`), and the registry as `focal measures` prints it (`listing`: name, aliases,
definition, reference), read from the declarations.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from focal.evaluation.measures.grammar import UnknownMeasure
from focal.evaluation.measures.trec_eval.families import declarations as trec
from focal.evaluation.measures.trec_eval.names import FRACTION_NDCG, parse_trec, resolve


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
    """One line of `focal measures`: `tasks` are the `--task`s that evaluate it, `vocabularies`
    those that spell it (`focal`, `trec_eval`, `ir_measures`), for `--task` and `--vocabulary`."""

    name: str
    aliases: str
    definition: str
    reference: str
    tasks: tuple[str, ...] = ("articles",)
    vocabularies: tuple[str, ...] = ("trec_eval",)


def listing() -> list[Entry]:
    """The registry of article measures, trec_eval's families and the extra ir_measures names,
    then the passage and element measures, as `focal measures` prints them.

    >>> next(e for e in listing() if e.name == "ndcg_cut").aliases
    'nDCG@k'
    """
    # (imported here: the declarations load every engine, with numpy, and `asked_rows` names
    # the rows of `focal eval --task articles` on the C part's path, which imports none)
    from focal.evaluation.measures.registry.declarations import (
        ARTICLE_MEASURES,
        ELEMENT_MEASURES,
        MEASURES,
    )

    entries = []
    for measure in trec.TREC_MEASURES:
        definition = measure.definition or "trec_eval's " + measure.name
        aliases = " ".join(measure.aliases)
        spelled = (("focal", measure.focal), ("ir_measures", measure.ir_measures + measure.rel))
        vocabularies = ("trec_eval", *(name for name, given in spelled if given))
        entries.append(Entry(measure.name, aliases, definition, "trec_eval 10 (measures.c)",
                             vocabularies=vocabularies))  # fmt: skip
    ir_measures = {"vocabularies": ("ir_measures",)}
    entries.append(Entry("Judged@k", "", "documents of ranks 1..k in the qrels / documents there",
                         "ir_measures", **ir_measures))  # fmt: skip
    entries.append(Entry("RR@k", "RR(rel=g)@k", "recip_rank of ranks 1..k (trec_eval -M k)",
                         "ir_measures", **ir_measures))  # fmt: skip
    entries.append(Entry("X(rel=g)", "P(rel=2)@5, AP(rel=2)", "X with grades >= g relevant "
                         "(trec_eval -l g)", "ir_measures", **ir_measures))  # fmt: skip
    for declared in (*MEASURES, *ELEMENT_MEASURES):  # Focal's other article names: aliases
        if declared.name == FRACTION_NDCG or declared not in ARTICLE_MEASURES:
            aliases = declared.all_name or ""
            name = declared.name + (" (elements)" if declared in ELEMENT_MEASURES else "")
            entries.append(Entry(name, aliases, declared.formula,
                                 short_reference(declared.reference), declared.tasks,
                                 ("focal",)))  # fmt: skip
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
