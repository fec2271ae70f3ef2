"""What every INEX, Focal article and element measure is: a declaration (name, tasks,
parameters and their defaults, formula, citation); trec_eval's are declared with their
computations in `trec_eval.families` (gathered by `trec_eval.families.declarations`).

The code that computes a measure lives in the family packages (`passages`, `articles`,
`elements`); each declaration points at the function whose docstring carries the formula, the
reference and a doctest, and the engines (`focal.evaluation.measures.engines`) say which
declarations they compute. The printed layout of each task (which rows, in which order, how the
`all` row is aggregated) is declared here too, so that the engines, `aggregate` and the reports
agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from focal.evaluation.measures.articles import topic as articles
from focal.evaluation.measures.elements import cutoffs, overlap_ng, precall, xcg
from focal.evaluation.measures.elements.precall import LEVELS as PRECALL_LEVELS
from focal.evaluation.measures.passages import focused, incontext
from focal.evaluation.measures.tasks import ALL_PASSAGE_TASKS as ALL_PASSAGE_TASKS
from focal.evaluation.measures.tasks import CONTEXT_TASKS as CONTEXT_TASKS
from focal.evaluation.measures.tasks import PASSAGE_TASKS as PASSAGE_TASKS
from focal.evaluation.measures.tasks import TASKS as TASKS

Aggregation = Literal["sum", "mean"]

KAMPS_2007 = (
    "J. Kamps, J. Pehcevski, G. Kazai, M. Lalmas, S. Robertson: INEX 2007 Evaluation Measures. "
    "In: Focused Access to XML Documents (INEX 2007), LNCS 4862, pp. 24-33, Springer 2008."
)
GEVA_2009 = (
    "S. Geva, J. Kamps, M. Lethonen, R. Schenkel, J. A. Thom, A. Trotman: Overview of the INEX "
    "2009 Ad Hoc Track. In: Focused Retrieval and Evaluation (INEX 2009), LNCS 6203, Springer 2010."
)
ARVOLA_2010 = (
    "P. Arvola, S. Geva, J. Kamps, R. Schenkel, A. Trotman, J. Vainio: Overview of the INEX 2010 "
    "Ad Hoc Track. In: Comparative Evaluation of Focused Retrieval (INEX 2010), LNCS 6932, "
    "Springer 2011; and P. Arvola, J. Kekäläinen, M. Junkkari: Expected reading effort in focused "
    "retrieval evaluation. Information Retrieval 13(5), 2010."
)
TREC_EVAL = (
    "C. Buckley et al.: trec_eval 9 (m_map.c, m_P.c, m_ndcg_cut.c, m_Rprec.c, m_bpref.c); "
    "Buckley & Voorhees: Retrieval evaluation with incomplete information, SIGIR 2004 (bpref); "
    "Järvelin & Kekäläinen: Cumulated gain-based evaluation of IR techniques, TOIS 2002 (nDCG)."
)


@dataclass(frozen=True)
class Measure:
    """The declaration of one printed measure."""

    name: str  # as printed; `[k]`/`@k` stand for a cut-off
    tasks: tuple[str, ...]
    formula: str
    reference: str
    compute: Callable[..., Any]  # the function whose docstring has formula, reference, doctest
    parameters: tuple[str, ...] = ()
    aggregation: Aggregation = "mean"
    all_name: str | None = None  # the name of the `all` row when it differs (AiP -> MAiP)
    defaults: tuple[float, ...] = ()  # the cut-offs or levels `k`/`x` stands for when not given


IP_POINTS = (0, 1, 5, 10)  # the per-topic iP[x] rows, in hundredths of recall
GP_CUTOFFS = (1, 2, 3, 5, 10, 25, 50)

MEASURES: tuple[Measure, ...] = (
    Measure("num_ret", ALL_PASSAGE_TASKS, "number of distinct articles retrieved", KAMPS_2007,
            focused.article_counts, aggregation="sum"),
    Measure("num_rel", ALL_PASSAGE_TASKS, "N = number of articles with rel_chars > 0",
            KAMPS_2007, focused.article_counts, aggregation="sum"),
    Measure("num_rel_ret", ALL_PASSAGE_TASKS, "distinct relevant articles retrieved",
            KAMPS_2007, focused.article_counts, aggregation="sum"),
    Measure("ret_size", ALL_PASSAGE_TASKS, "Σ size(p) over results (0 for bic)", KAMPS_2007,
            focused.character_precision, aggregation="sum"),
    Measure("rel_size", ALL_PASSAGE_TASKS, "T = Σ rel_chars over the topic's qrels",
            KAMPS_2007, focused.character_recall, aggregation="sum"),
    Measure("rel_ret_size", ALL_PASSAGE_TASKS, "Σ rel(p) over results (0 for bic)",
            KAMPS_2007, focused.character_recall, aggregation="sum"),
    Measure("art_prec", PASSAGE_TASKS, "num_rel_ret / num_ret", KAMPS_2007,
            focused.ratio),
    Measure("art_rec", PASSAGE_TASKS, "num_rel_ret / num_rel", KAMPS_2007, focused.ratio),
    Measure("art_f1", PASSAGE_TASKS, "2·P·R / (P + R)", KAMPS_2007, focused.f1),
    Measure("char_prec", PASSAGE_TASKS, "rel_ret_size / ret_size", KAMPS_2007,
            focused.character_precision),
    Measure("char_rec", PASSAGE_TASKS, "rel_ret_size / rel_size", KAMPS_2007,
            focused.character_recall),
    Measure("char_f1", PASSAGE_TASKS, "2·P·R / (P + R)", KAMPS_2007, focused.f1),
    Measure("iP[x]", PASSAGE_TASKS,
            "iP[x] = max{P[r] : R[r] ≥ x}, recall binned as floor(100·R) in double",
            KAMPS_2007, focused.interpolated_precision, parameters=("strict",),
            defaults=IP_POINTS),
    Measure("AiP", PASSAGE_TASKS, "AiP = Σ_{i=0..100} iP[i/100] / 101", KAMPS_2007,
            focused.average_interpolated_precision, all_name="MAiP"),
    Measure("gP[k]", CONTEXT_TASKS, "gP[k] = Σ_{r≤k} score(d_r) / k (k := n when n < k)",
            KAMPS_2007, incontext.generalised_precision, parameters=("strict",),
            defaults=GP_CUTOFFS),
    Measure("gR[k]", CONTEXT_TASKS, "gR[k] = |relevant articles in ranks 1..k| / N",
            KAMPS_2007, incontext.generalised_precision, defaults=GP_CUTOFFS),
    Measure("AgP", CONTEXT_TASKS, "AgP = Σ_{r: d_r relevant} gP[r] / N", KAMPS_2007,
            incontext.generalised_precision, all_name="MAgP"),
    Measure("score_ric", ("ric",), "F = (1+β²)·Pd·Rd / (β²·Pd + Rd), β = 0.25", KAMPS_2007,
            incontext.ric_score, parameters=("beta",)),
    Measure("score_bic", ("bic",), "(n − |bep − offset|) / n when within n, else 0",
            GEVA_2009, incontext.bic_score, parameters=("n",)),
    Measure("score_t2i", ("t2i",),
            "relevant read / read, reading until `irr` irrelevant characters", ARVOLA_2010,
            incontext.t2i_score, parameters=("irr",)),
    Measure("MAP", ("articles",), "mean of AP = Σ_{rel d_r} P@r / R", TREC_EVAL,
            articles.average_precision),
    Measure("P@k", ("articles",), "relevant in ranks 1..k / k", TREC_EVAL,
            articles.precision_at),
    Measure("nDCG(gain=fraction)@k", ("articles",),
            "Σ_{r≤k} g_r / log2(r+1) ÷ ideal, g = rel_chars / article_chars (not the grade)",
            TREC_EVAL,
            articles.ndcg_at),
    Measure("Rprec", ("articles",), "relevant in ranks 1..R / R", TREC_EVAL,
            articles.r_precision),
    Measure("bpref", ("articles",),
            "Σ_{rel d_r} (1 − min(#nonrel above, m)/m) / R, m = min(R, N_nonrel)", TREC_EVAL,
            articles.bpref),
)  # fmt: skip

BY_NAME = {measure.name: measure for measure in MEASURES}
# Focal's article measures on FOL qrels: the `articles` vocabulary of `registry.names`.
ARTICLE_MEASURES = tuple(measure for measure in MEASURES if measure.tasks == ("articles",))

# Task "elements" (spec section 5); kept apart so that `P@k` of articles keeps its entry above.
ELEMENT_MEASURES: tuple[Measure, ...] = (
    Measure("P@k", ("elements",), "P@k = Σ_{i≤k} f(e_i, s_i) / k, missing results 0",
            cutoffs.REFERENCE, cutoffs.precision_at, parameters=("quant",),
            defaults=cutoffs.CUTOFFS),
    Measure("overlap@k", ("elements",),
            "|{r ∈ R_k : ∃ r′ ∈ R_k, r′ ≠ r, nested(r, r′)}| / k", cutoffs.REFERENCE,
            cutoffs.overlap_at, defaults=cutoffs.CUTOFFS),
    Measure("inex_eval", ("elements",),
            "mean over x = 0.01..1 of n/(n + ESL(n)), n = x·Σf, ESL = j + s·i/(r+1)",
            precall.REFERENCE, precall.precall_curve, parameters=("quant", "ties"),
            defaults=PRECALL_LEVELS),
    Measure("inex_eval_ng", ("elements",),
            "mean of max{precision_o[k] : recall_o[k] ≥ x}, Hiemstra & Mihajlović, eq. 5-7",
            overlap_ng.REFERENCE, overlap_ng.inex_eval_ng, parameters=("quant",),
            defaults=PRECALL_LEVELS),
    Measure("nxCG@k", ("elements",), "xCG[k] / xCI[k], gains seen, seen in part, capped under "
            "each ideal element; ideal base: best per path, deeper on ties",
            xcg.REFERENCE, xcg.nxcg_at, parameters=("quant", "alpha", "part_weights"),
            defaults=xcg.XCG_CUTOFFS),
    Measure("MAep", ("elements",), "Σ_{i: g[i]>0} (i_ideal(xCG[i]) / i) · g[i] ÷ xCI[|ideal|]",
            xcg.REFERENCE, xcg.maep, parameters=("quant", "alpha", "part_weights")),
)  # fmt: skip


def topic_rows(task: str) -> list[str]:
    """The per-topic rows the official program prints for `task`, in its order.

    >>> topic_rows("bic")[6:9]
    ['gP[1]', 'gR[1]', 'gP[2]']
    >>> topic_rows("focused")[-2:]
    ['iP[0.10]', 'AiP']
    """
    counts = ["num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size"]
    if task in PASSAGE_TASKS:
        sets = ["art_prec", "art_rec", "art_f1", "char_prec", "char_rec", "char_f1"]
        return [*counts, *sets, *(ip_name(i) for i in IP_POINTS), "AiP"]
    if task in CONTEXT_TASKS:
        cuts = [name for k in GP_CUTOFFS for name in (f"gP[{k}]", f"gR[{k}]")]
        return [*counts, *cuts, "AgP"]
    raise ValueError(f"no official layout for task {task!r}")


def ip_name(hundredths: int) -> str:
    """The printed name of iP at a recall level in hundredths: `iP[0.05]`."""
    return f"iP[{hundredths / 100:.2f}]"


def curve_name(level: float) -> str:
    """The printed name of an interpolated recall point of the `all` rows: `ircl_prn.0.10`."""
    return f"ircl_prn.{level:.2f}"


def is_summed(row: str) -> bool:
    """Whether the `all` row of a per-topic row is a sum over topics (counts) or a mean.

    >>> is_summed("ret_size"), is_summed("char_prec")
    (True, False)
    """
    measure = BY_NAME.get(row)
    return measure is not None and measure.aggregation == "sum"
