"""trec_eval's measures as declarations: each family's name, default parameters, how its rows
print, and the other spellings that name it; the sets `-m` accepts; and `Selection`, the rows a
`-m` list asks for.

`-m P.5,7,3` asks for `P_3 P_5 P_7` (cut-offs sorted, as trec_eval sorts them), `-m official`
and `-m all_trec` for trec_eval's sets (restricted to what Focal computes; `left_out` says which
names a set asked for that Focal does not have). Rows print in trec_eval's measure order, not in
the order of `-m`. Aliases: Focal's `MAP` (map), `P@k` (P.k), `nDCG@k` (ndcg_cut.k), and
ir_measures' strings (`AP`, `AP@k`, `nDCG`, `R@k`, `RR`, `Bpref`, `Success@k`, `IPrec@x`, `NumQ`,
`NumRet`, `NumRel`, `NumRelRet`, `SetP`, `SetR`, `SetF`). Reference: trec_eval 9/10
`measures.c`, `meas_init.c`; ir_measures' measure names (MacAvaney et al., ECIR 2022).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
UNJUDGED_CUTS = (5, 10, 20)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)

Printed = Literal["one", "cutoffs", "levels", "typed", "pairs"]


@dataclass(frozen=True)
class TrecMeasure:
    """A trec_eval measure family as `-m` names it and as its rows print.

    `defaults`: the parameters when none are given (None: it takes none). `printed`: one row
    (`map`), a row per cut-off (`P_10`), per level (`iprec_at_recall_0.10`), or one row named with
    the parameters as typed (`set_F_0.5`). `aliases`: other spellings, `X@k` standing for a
    parameter after `@` (`nDCG@10` is `ndcg_cut.10`).
    """

    name: str
    defaults: tuple[float, ...] | None = None
    printed: Printed = "one"
    count: bool = False  # printed as an integer, summed over topics
    geometric: bool = False  # per topic ln max(x, 1e-5); `all`: exp of the mean
    aliases: tuple[str, ...] = ()
    text: bool = False  # a string per topic (relstring), no `all` row


# Focal's families in trec_eval's order (measures.c).
TREC_MEASURES: tuple[TrecMeasure, ...] = (
    TrecMeasure("num_q", count=True, aliases=("NumQ",)),
    TrecMeasure("num_ret", count=True, aliases=("NumRet",)),
    TrecMeasure("num_rel", count=True, aliases=("NumRel",)),
    TrecMeasure("num_rel_ret", count=True, aliases=("NumRelRet",)),
    TrecMeasure("map", aliases=("MAP", "AP")),
    TrecMeasure("gm_map", geometric=True),
    TrecMeasure("Rprec"),
    TrecMeasure("bpref", aliases=("Bpref",)),
    TrecMeasure("recip_rank", aliases=("RR",)),
    TrecMeasure("iprec_at_recall", RECALL_LEVELS, "levels", aliases=("IPrec@k",)),
    TrecMeasure("P", LONG_CUTS, "cutoffs", aliases=("P@k",)),
    TrecMeasure("relstring", (10.0,), "typed", text=True),
    TrecMeasure("recall", LONG_CUTS, "cutoffs", aliases=("R@k",)),
    TrecMeasure("infAP"),
    TrecMeasure("gm_bpref", geometric=True),
    TrecMeasure("Rprec_mult", R_MULTIPLES, "levels"),
    TrecMeasure("utility", (1.0, -1.0, 0.0, 0.0), "typed"),
    TrecMeasure("11pt_avg", RECALL_LEVELS, "typed"),
    TrecMeasure("binG"),
    TrecMeasure("G", (), "pairs"),
    TrecMeasure("dcg", (), "pairs"),
    TrecMeasure("ideal_dcg", (), "pairs"),
    TrecMeasure("ndcg", (), "pairs", aliases=("nDCG",)),
    TrecMeasure("ndcg_rel", (), "pairs"),
    TrecMeasure("Rndcg", (), "pairs"),
    TrecMeasure("ndcg_cut", LONG_CUTS, "cutoffs", aliases=("nDCG@k",)),
    TrecMeasure("map_cut", LONG_CUTS, "cutoffs", aliases=("AP@k",)),
    TrecMeasure("relative_P", LONG_CUTS, "cutoffs"),
    TrecMeasure("success", (1, 5, 10), "cutoffs", aliases=("Success@k",)),
    TrecMeasure("set_P", aliases=("SetP",)),
    TrecMeasure("set_relative_P"),
    TrecMeasure("set_recall", aliases=("SetR",)),
    TrecMeasure("set_map"),
    TrecMeasure("set_F", (1.0,), "typed", aliases=("SetF",)),
    TrecMeasure("num_nonrel_judged_ret", count=True),
    TrecMeasure("prefs_num_prefs_poss", count=True),
    TrecMeasure("prefs_num_prefs_ful", count=True),
    TrecMeasure("prefs_num_prefs_ful_ret", count=True),
    TrecMeasure("prefs_simp"),
    TrecMeasure("prefs_pair"),
    TrecMeasure("prefs_avgjg"),
    TrecMeasure("prefs_avgjg_Rnonrel"),
    TrecMeasure("prefs_simp_ret"),
    TrecMeasure("prefs_pair_ret"),
    TrecMeasure("prefs_avgjg_ret"),
    TrecMeasure("prefs_avgjg_Rnonrel_ret"),
    TrecMeasure("prefs_simp_imp"),
    TrecMeasure("prefs_pair_imp"),
    TrecMeasure("prefs_avgjg_imp"),
    TrecMeasure("map_avgjg"),
    TrecMeasure("P_avgjg", LONG_CUTS, "cutoffs"),
    TrecMeasure("Rprec_mult_avgjg", R_MULTIPLES, "levels"),
    TrecMeasure("yaap"),
    TrecMeasure("rbp", (), "pairs"),
    TrecMeasure("rbp_resid", (), "pairs"),
    TrecMeasure("unj", UNJUDGED_CUTS, "cutoffs"),
)  # fmt: skip
BY_NAME = {measure.name: measure for measure in TREC_MEASURES}
FAMILIES: dict[str, tuple[float, ...] | None] = {m.name: m.defaults for m in TREC_MEASURES}
COUNTS = frozenset(m.name for m in TREC_MEASURES if m.count)
CUTOFF_FAMILIES = frozenset(m.name for m in TREC_MEASURES if m.printed == "cutoffs")
PARAMETER_LISTS = frozenset(m.name for m in TREC_MEASURES if m.printed == "typed")
PAIR_FAMILIES = frozenset(m.name for m in TREC_MEASURES if m.printed == "pairs")
TEXT = frozenset(m.name for m in TREC_MEASURES if m.text)
GEOMETRIC = frozenset(m.name for m in TREC_MEASURES if m.geometric)
# judgement-group measures (-R qrels_jg): the mean over a topic's groups of map, P, Rprec_mult
GROUP_MEASURES = {"map_avgjg": "map", "P_avgjg": "P", "Rprec_mult_avgjg": "Rprec_mult"}
SUMMARY_ONLY = frozenset({"num_q", *GEOMETRIC})  # trec_eval prints them in the `all` block only
# The values 10.0 resets on a topic it evaluates with -c as an empty ranking (trec_eval.c).
RESET_WHEN_MISSING = frozenset({"num_ret", "utility", "relstring", "unj", "rbp_resid"})

# trec_eval measures Focal does not compute: declared, so that a name is refused as such and a
# set that holds them leaves them out.
NOT_COMPUTED: tuple[str, ...] = ()
# ir_measures' measures no engine provides yet (a cut-off on recip_rank, judged fraction,
# expected reciprocal rank, ...): parsed, then refused by name.
NOT_PROVIDED = ("RR@k", "Judged@k", "ERR@k", "nERR@k", "alpha_nDCG@k", "SDCG@k", "RBP", "INST",
                "INSQ", "Compat", "NumNonRel", "StRecall")  # fmt: skip
SETS: dict[str, tuple[str, ...]] = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
        "recip_rank", "iprec_at_recall", "P",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
        "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "unj", "rbp", "rbp_resid",
        "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg", "relative_P", "Rprec_mult",
        "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P",
        "set_recall", "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
    ),
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
    "all_prefs": (
        "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
        "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
        "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
    ),
    "prefs": (
        "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
    ),
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F",
    ),
}  # fmt: skip


@dataclass(frozen=True)
class Row:
    """One printed measure: its name (`P_10`), family (`P`) and parameter (10), if any."""

    name: str
    family: str
    parameter: float | None = None


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


def known_names() -> str:
    """What `-m` accepts, for error messages and --help."""
    return (
        f"{' '.join(FAMILIES)}; sets {' '.join(SETS)}; Focal's aliases MAP P@k nDCG@k "
        "(parameters as trec_eval: P.5,10 ndcg_cut.10 iprec_at_recall.0.1,0.5 set_F.0.5)"
    )
