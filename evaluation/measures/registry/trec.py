"""trec_eval's measure names, parameters and sets, as `-m` accepts them.

`-m P.5,7,3` asks for `P_3 P_5 P_7` (cut-offs sorted, as trec_eval sorts them), `-m official`
and `-m all_trec` for trec_eval's sets (restricted to what Focal computes; `left_out` says which
names a set asked for that Focal does not have). Rows print in trec_eval's measure order, not in
the order of `-m`. Focal's own article names stay as aliases: `MAP` (map), `P@k` (P.k),
`nDCG@k` (ndcg_cut.k), `Rprec`, `bpref`. Reference: trec_eval 9/10 `measures.c`, `meas_init.c`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
R_MULTIPLES = (0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0)
PARAMETER_LISTS = frozenset({"11pt_avg", "set_F", "utility"})  # one row, parameters as typed

# Focal's families in trec_eval's order (measures.c), with their default parameters.
FAMILIES: dict[str, tuple[float, ...] | None] = {
    "num_q": None, "num_ret": None, "num_rel": None, "num_rel_ret": None, "map": None,
    "gm_map": None, "Rprec": None, "bpref": None, "recip_rank": None,
    "iprec_at_recall": RECALL_LEVELS, "P": LONG_CUTS, "recall": LONG_CUTS, "infAP": None,
    "gm_bpref": None, "Rprec_mult": R_MULTIPLES, "utility": (1.0, -1.0, 0.0, 0.0),
    "11pt_avg": RECALL_LEVELS, "ndcg": None, "ndcg_cut": LONG_CUTS,
    "map_cut": LONG_CUTS, "relative_P": LONG_CUTS, "success": (1, 5, 10), "set_P": None,
    "set_relative_P": None, "set_recall": None, "set_map": None, "set_F": (1.0,),
    "num_nonrel_judged_ret": None,
}  # fmt: skip
COUNTS = frozenset({"num_q", "num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret"})
CUTOFF_FAMILIES = frozenset({"P", "recall", "ndcg_cut", "map_cut", "relative_P", "success"})
GEOMETRIC = frozenset({"gm_map", "gm_bpref"})  # per topic ln max(x, 1e-5); `all`: exp of mean
SUMMARY_ONLY = frozenset({"num_q", *GEOMETRIC})  # trec_eval prints them in the `all` block only

# trec_eval measures Focal does not compute (named in sets; refused by name with this note).
NOT_COMPUTED = (
    "relstring", "binG", "G", "dcg", "ideal_dcg", "ndcg_rel", "Rndcg",
)  # fmt: skip
SETS: dict[str, tuple[str, ...]] = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
        "recip_rank", "iprec_at_recall", "P",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
        "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref",
        "utility", "11pt_avg", "ideal_dcg", "dcg", "ndcg", "relative_P", "Rprec_mult", "success",
        "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg", "binG", "G", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F", "num_nonrel_judged_ret",
    ),
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F",
    ),
}  # fmt: skip
_ALIAS = re.compile(r"^(?:(MAP)|(P)@(\d+)|(nDCG)@(\d+))$")


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
    runid: bool = False  # print the `runid` row (sets include it; `-m runid` asks for it)

    def rows(self) -> list[Row]:
        """Every printed row, in trec_eval's order."""
        rows: list[Row] = []
        for family in FAMILIES:
            if family not in self.families:
                continue
            values = self.parameters(family)
            if family in CUTOFF_FAMILIES:
                rows.extend(Row(f"{family}_{int(k)}", family, k) for k in values)
            elif family in ("iprec_at_recall", "Rprec_mult"):
                rows.extend(Row(f"{family}_{p:3.2f}", family, p) for p in values)
            elif family in PARAMETER_LISTS and family in self.printable:
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


def parse_measures(specs: Sequence[str]) -> Selection:
    """Parse `-m` values (each may be comma-free repeated or carry `.params`); empty: official.

    >>> [row.name for row in parse_measures(["P.10,5", "map"]).rows()]
    ['map', 'P_5', 'P_10']
    >>> parse_measures(["official"]).rows()[-1].name
    'P_1000'
    >>> [r.name for r in parse_measures(["nDCG@10", "P@3"]).rows()]
    ['P_3', 'ndcg_cut_10']
    """
    selection = Selection()
    for spec in specs or ["official"]:
        alias = _ALIAS.match(spec)
        if alias:
            spec = "map" if alias.group(1) else (
                f"P.{alias.group(3)}" if alias.group(2) else f"ndcg_cut.{alias.group(5)}"
            )  # fmt: skip
        name, dot, params = spec.partition(".")
        if name in SETS:
            if dot:
                raise ValueError(f"measure set {name!r} takes no parameters")
            selection.runid = True
            for member in SETS[name]:
                if member in FAMILIES:
                    selection.families.setdefault(member, None)
                elif member != "runid" and member not in selection.left_out:
                    selection.left_out.append(member)
            continue
        if name in NOT_COMPUTED:
            raise ValueError(f"trec_eval measure {name!r} is not computed by Focal")
        if name == "runid":
            selection.runid = True
            continue
        if name not in FAMILIES:
            raise ValueError(f"unknown measure {spec!r}: known are {known_names()}")
        if dot:
            _add_parameters(selection, name, params)
        else:
            selection.families.setdefault(name, None)
    return selection


def _add_parameters(selection: Selection, name: str, params: str) -> None:
    if FAMILIES[name] is None:
        raise ValueError(f"measure {name!r} takes no parameters")
    try:
        values = [float(p) for p in params.split(",")]
    except ValueError:
        raise ValueError(f"expected numbers after {name}., found {params!r}") from None
    if name in CUTOFF_FAMILIES:
        if any(v != int(v) or v <= 0 for v in values):
            raise ValueError(f"cut-offs of {name} must be positive integers, found {params!r}")
        values = [float(int(v)) for v in values]
    if name == "utility" and len(values) != 4:
        raise ValueError(f"utility takes 4 coefficients, found {params!r}")
    if name in PARAMETER_LISTS:
        selection.printable[name] = params
    else:
        values.sort()
        if len(set(values)) != len(values):
            raise ValueError(f"duplicate cut-offs in {name}.{params} (trec_eval refuses them)")
    selection.families[name] = tuple(values)
