"""trec_eval's measures as declarations, gathered: every family module's `DECLARED` in
trec_eval's order, what derives from them (the sets `-m` accepts, the registries the engine,
the name grammar and the writers read), `Selection`, the rows a `-m` list asks for, and
`topic_values`, which runs each selected row's `compute` over a ranked run.

`-m P.5,7,3` asks for `P_3 P_5 P_7` (cut-offs sorted, as trec_eval sorts them), `-m official`
and `-m all_trec` for trec_eval's sets (restricted to what Focal computes; `left_out` says which
names a set asked for that Focal does not have). Rows print in trec_eval's measure order
(`TrecMeasure.position`), not in the order of `-m`. Aliases: Focal's `MAP` (map), `P@k` (P.k),
`nDCG@k` (ndcg_cut.k), and ir_measures' strings (`AP`, `AP@k`, `nDCG`, `R@k`, `RR`, `Bpref`,
`Success@k`, `IPrec@x`, `NumQ`, `NumRet`, `NumRel`, `NumRelRet`, `SetP`, `SetR`, `SetF`).
Reference: trec_eval 9/10 `measures.c`, `meas_init.c`; ir_measures' measure names (MacAvaney
et al., ECIR 2022).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from focal.evaluation.measures.trec_eval.families import (
    average_precision,
    gains,
    interpolated,
    precision,
    preference_measures,
    sets,
    top_ranks,
)
from focal.evaluation.measures.trec_eval.families.measure import (
    MIN_GEO_MEAN,
    SET_NAMES,
    Column,
    Context,
    Ranked,
    Row,
    TrecMeasure,
)

# Every family in trec_eval's order (measures.c).
TREC_MEASURES: tuple[TrecMeasure, ...] = tuple(sorted(
    (*sets.DECLARED, *average_precision.DECLARED, *precision.DECLARED, *interpolated.DECLARED,
     *gains.DECLARED, *top_ranks.DECLARED, *preference_measures.DECLARED),
    key=lambda measure: measure.position,
))  # fmt: skip

if TYPE_CHECKING:
    import numpy as np
else:
    from focal.evaluation.measures.trec_eval.lazy_numpy import numpy as np
BY_NAME = {measure.name: measure for measure in TREC_MEASURES}
FAMILIES: dict[str, tuple[float, ...] | None] = {m.name: m.defaults for m in TREC_MEASURES}
COUNTS = frozenset(m.name for m in TREC_MEASURES if m.count)
CUTOFF_FAMILIES = frozenset(m.name for m in TREC_MEASURES if m.printed == "cutoffs")
PARAMETER_LISTS = frozenset(m.name for m in TREC_MEASURES if m.printed == "typed")
PAIR_FAMILIES = frozenset(m.name for m in TREC_MEASURES if m.printed == "pairs")
TEXT = frozenset(m.name for m in TREC_MEASURES if m.text)
GEOMETRIC = frozenset(m.name for m in TREC_MEASURES if m.geometric)
# judgement-group measures (-R qrels_jg): the mean over a topic's groups of map, P, Rprec_mult
GROUP_MEASURES = {m.name: m.over_groups for m in TREC_MEASURES if m.over_groups is not None}
# trec_eval prints them in the `all` block only
SUMMARY_ONLY = frozenset(m.name for m in TREC_MEASURES if m.summary_only or m.geometric)
# The values 10.0 resets on a topic it evaluates with -c as an empty ranking (trec_eval.c).
RESET_WHEN_MISSING = frozenset(m.name for m in TREC_MEASURES if m.reset_when_missing)
ALIASES = {alias: m for m in TREC_MEASURES for alias in m.aliases}
# ir_measures' spellings that take `(rel=g)` (trec_eval's -l g): the family each names
REL_FAMILIES = {spelling: m.name for m in TREC_MEASURES for spelling in m.rel}

# trec_eval measures Focal does not compute: declared, so that a name is refused as such and a
# set that holds them leaves them out.
NOT_COMPUTED: tuple[str, ...] = ()
# ir_measures' measures no engine provides yet (a cut-off on recip_rank, judged fraction,
# expected reciprocal rank, ...): parsed, then refused by name.
NOT_PROVIDED = ("RR@k", "Judged@k", "ERR@k", "nERR@k", "alpha_nDCG@k", "SDCG@k", "RBP", "INST",
                "INSQ", "Compat", "NumNonRel", "StRecall")  # fmt: skip
# who computes what no engine of Focal's provides (ir_measures 0.4's providers; `pip install`
# names), for the refusal to say so
COMPUTED_BY = {
    "nERR@k": "ndeval (the TREC Web track's tool; no ir_measures provider)",
    "alpha_nDCG@k": "ir_measures with pyndeval (pip install pyndeval)",
    "StRecall": "ir_measures with pyndeval (pip install pyndeval)",
    "SDCG@k": "ir_measures with cwl_eval (pip install cwl-eval)",
    "INST": "ir_measures with cwl_eval (pip install cwl-eval)",
    "INSQ": "ir_measures with cwl_eval (pip install cwl-eval)",
    "RBP": "`focal.evaluate` or `focal eval --task articles`, as ir_measures' trectools "
    "provider; trec_eval's own is `-m rbp.p=0.8`, gains rescaled,",
    "Compat": "`focal.evaluate` or `focal eval --task articles`, as ir_measures' compat provider,",
    "NumNonRel": "no ir_measures provider (trec_eval's num_nonrel_judged_ret is here)",
}
SETS: dict[str, tuple[str, ...]] = {
    name: ("runid", *(m.name for m in TREC_MEASURES if name in m.sets)) for name in SET_NAMES
}


@dataclass
class Selection:
    """The measures asked for: family -> parameters (None for the default ones)."""

    families: dict[str, tuple[float, ...] | None] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)  # asked for by a set, not computed
    printable: dict[str, str] = field(default_factory=dict)  # parameters as typed, for names
    pairs: dict[str, tuple[tuple[str, float], ...]] = field(default_factory=dict)  # `1=3,p=0.8`
    runid: bool = False  # print the `runid` row (sets include it; `-m runid` asks for it)

    def rows(self) -> list[Row]:
        """Every printed row, in trec_eval's order, named as its declaration prints it."""
        rows: list[Row] = []
        for measure in TREC_MEASURES:
            family = measure.name
            if family not in self.families:
                continue
            values = self.parameters(family)
            if measure.printed == "cutoffs":
                rows.extend(Row(f"{family}_{int(k)}", family, k) for k in values)
            elif measure.printed == "levels":
                rows.extend(Row(f"{family}_{p:3.2f}", family, p) for p in values)
            elif measure.printed in ("typed", "pairs") and family in self.printable:
                rows.append(Row(f"{family}_{self.printable[family]}", family))
            else:
                rows.append(Row(family, family))
        return rows

    def parameters(self, family: str) -> tuple[float, ...]:
        given = self.families.get(family)
        default = FAMILIES[family]
        return given if given is not None else (default or ())


def topic_values(
    ranked: Ranked, selection: Selection, level: int, version: int, num_docs: int = 0
) -> dict[str, Column]:
    """Every selected row's values over the topics of `ranked`, by its family's `compute`
    (relstring: a list of strings; geometric families as ln max(x, 1e-5)); the rows no
    `compute` gives (num_q, other judgements' families) are left out. `num_docs` is the
    collection size (-N) utility's fourth term uses."""
    rows = selection.rows()
    if len(ranked.starts) == 0:
        return {row.name: np.zeros(0) for row in rows if row.family != "num_q"}
    context = Context(ranked, selection, level, version, num_docs)
    out: dict[str, Column] = {}
    for row in rows:
        measure = BY_NAME[row.family]
        if measure.compute is None:
            continue
        values = measure.compute(context, row)
        if measure.geometric:
            values = np.log(np.maximum(values, MIN_GEO_MEAN))
        out[row.name] = values
    return out


def known_names() -> str:
    """What `-m` accepts, for error messages and --help."""
    return (
        f"{' '.join(FAMILIES)}; sets {' '.join(SETS)}; Focal's aliases MAP P@k nDCG@k "
        "(parameters as trec_eval: P.5,10 ndcg_cut.10 iprec_at_recall.0.1,0.5 set_F.0.5)"
    )
