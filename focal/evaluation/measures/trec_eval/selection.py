"""A `-m` list in any spelling read into trec_eval's selection (`select`): trec_eval's own rows,
the cut-offs several names give one family joined (`merged`), and the names with options of their
own kept apart (`NamedSelection.apart`), which `engine.vocabulary.evaluate_named` evaluates one by
one. Imports no numpy: `focal eval --task articles` reads its measures before it knows whether
the C part's whole-file pass answers (docs/trec_eval.md, "The C part").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from focal.evaluation.measures.grammar import NotProvided
from focal.evaluation.measures.trec_eval.families import declarations as trec
from focal.evaluation.measures.trec_eval.families.declarations import Selection
from focal.evaluation.measures.trec_eval.families.measure import Row
from focal.evaluation.measures.trec_eval.names import Definition, parse_name, parse_trec, plan


@dataclass
class NamedSelection(Selection):
    """trec_eval's selection plus the rows named as typed (`apart`), printed after it."""

    apart: list[Definition] = field(default_factory=list)
    asked: tuple[str, ...] = ()  # the names as typed, for headers that say them

    def rows(self) -> list[Row]:
        own = [Row(d.text, d.family, d.parameter) for d in self.apart]
        return [*super().rows(), *own]

    def plain(self) -> Selection:
        """The selection without the rows apart, as `evaluate_trec` takes it."""
        return Selection(
            dict(self.families), self.left_out, self.printable, pairs=self.pairs, runid=self.runid
        )


def select(names: Sequence[str]) -> NamedSelection:
    """A `-m` list in any spelling; empty: trec_eval's `official` set.

    >>> [row.name for row in select(["AP", "P(rel=2)@5", "P@5"]).rows()]
    ['map', 'P_5', 'P(rel=2)@5']
    """
    sorted_names = plan(names)
    if sorted_names.fraction:
        raise NotProvided(
            f"measure {sorted_names.fraction[0]} (gain: the relevant fraction) needs FOL qrels "
            "and Focal's article engine: not with TREC qrels, --format trec, -l, -M or "
            "trec_eval's names"
        )
    plain = merged(sorted_names.plain)
    base = parse_trec(plain) if plain or not names else Selection()
    return NamedSelection(base.families, base.left_out, base.printable, base.pairs, base.runid,
                          sorted_names.apart, tuple(names))  # fmt: skip


def merged(names: Sequence[str]) -> list[str]:
    """The names with the cut-offs (or recall levels) several of them give one family joined
    into one trec_eval value (`P@5`, `P@10` -> `P.5,10`): trec_eval keeps the first `-m P.k` of
    a family, where a list of names asks for every one.

    >>> merged(["P@5", "AP", "P@10", "IPrec@0.5", "iprec_at_recall.0.1"])
    ['P.5,10', 'AP', 'iprec_at_recall.0.1,0.5']
    """
    by_family: dict[str, list[float]] = {}
    first: dict[str, int] = {}
    integers: set[str] = set()  # families whose values are cut-offs
    out: list[str] = []
    for name in names:
        request = parse_name(name)
        family = request.measure
        declared = trec.BY_NAME.get(family)
        kind = declared.parameters.kind if declared and declared.parameters else None
        if kind not in ("cutoffs", "levels") or request.parameters is None:
            out.append(name)
            continue
        if family not in first:
            first[family] = len(out)
            out.append(name)
        if kind == "cutoffs":
            integers.add(family)
        by_family.setdefault(family, []).extend(request.parameters)
    for family, at in first.items():
        values = sorted(set(by_family[family]))
        shown = (str(int(v)) if family in integers else repr(v) for v in values)
        out[at] = f"{family}.{','.join(shown)}"
    return out
