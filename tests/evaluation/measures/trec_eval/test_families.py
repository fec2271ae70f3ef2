"""trec_eval's families as declarations: each declared once with its computation, in
trec_eval's order, in the sets trec_eval gives it; the computations read one lazily built
context, each shared array built once a call."""

from __future__ import annotations

import math

import numpy as np
import pytest

from focal.evaluation.measures.trec_eval.families import declarations, gain_table, interpolated
from focal.evaluation.measures.trec_eval.families.declarations import (
    BY_NAME,
    SETS,
    TREC_MEASURES,
    topic_values,
)
from focal.evaluation.measures.trec_eval.families.ideal import running_sums
from focal.evaluation.measures.trec_eval.families.measure import NONPOOL, Context, Ranked, Row
from focal.evaluation.measures.trec_eval.families.precision import precision_at
from focal.evaluation.measures.trec_eval.names import parse_trec

# trec_eval 10.0's sets (`measures.c`, te_trec_measure_nicknames), as members
TREC_EVAL_SETS = {
    "official": "num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank "
    "iprec_at_recall P",
    "all_trec": "num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank "
    "iprec_at_recall P relstring recall unj rbp rbp_resid infAP gm_bpref utility 11pt_avg ndcg "
    "relative_P Rprec_mult success map_cut ndcg_cut ndcg_rel Rndcg binG G set_P set_recall "
    "set_relative_P set_map set_F num_nonrel_judged_ret",
    "set": "num_q num_ret num_rel num_rel_ret utility set_P set_recall set_relative_P set_map "
    "set_F",
    "all_prefs": "num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret "
    "prefs_simp prefs_pair prefs_avgjg prefs_avgjg_Rnonrel prefs_simp_ret prefs_pair_ret "
    "prefs_avgjg_ret prefs_avgjg_Rnonrel_ret prefs_simp_imp prefs_pair_imp prefs_avgjg_imp",
    "prefs": "num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp "
    "prefs_pair prefs_avgjg",
    "qrels_jg": "num_q map_avgjg P_avgjg Rprec_mult_avgjg",
}


def test_each_family_is_declared_once_in_trec_eval_order() -> None:
    names = [m.name for m in TREC_MEASURES]
    positions = [m.position for m in TREC_MEASURES]
    assert len(set(names)) == len(names) and len(set(positions)) == len(positions)
    assert positions == sorted(positions)
    assert list(BY_NAME) == names


def test_the_sets_derive_from_the_declarations_as_trec_eval_has_them() -> None:
    for name, members in TREC_EVAL_SETS.items():
        assert SETS[name][0] == "runid"
        assert set(SETS[name][1:]) == set(members.split()), name


def test_each_family_has_a_computation_or_says_what_gives_it() -> None:
    for measure in TREC_MEASURES:
        elsewhere = (
            measure.name == "num_q"
            or measure.over_groups is not None
            or measure.name.startswith("prefs_")
        )
        assert (measure.compute is None) == elsewhere, measure.name
        if measure.over_groups is not None:
            averaged = BY_NAME[measure.over_groups]
            assert averaged.compute is not None and averaged.parameters == measure.parameters


def test_every_alias_and_rel_spelling_belongs_to_one_family() -> None:
    seen: dict[str, str] = {}
    for measure in TREC_MEASURES:
        for spelling in (*measure.aliases, *measure.rel):
            assert seen.setdefault(spelling, measure.name) == measure.name, spelling
    assert declarations.ALIASES["AP"].name == "map" and declarations.REL_FAMILIES["R"] == "recall"


def _ranked(topics: list[list[int]], level: int = 1) -> Ranked:
    """Retrieved grades per topic; the judged documents are the retrieved ones."""
    grades = np.array([g for topic in topics for g in topic], dtype=np.int64)
    sizes = np.array([len(topic) for topic in topics], dtype=np.int64)
    num_rel = np.array([sum(g >= level for g in t) for t in topics], dtype=np.int64)
    num_nonrel = np.array([sum(0 <= g < level for g in t) for t in topics], dtype=np.int64)
    ideal = [sorted((g for g in t if g > 0), reverse=True) for t in topics]
    terms = np.array([g / math.log2(r + 2) for i in ideal for r, g in enumerate(i)])
    levels = [np.bincount(np.array([g for g in t if g >= 0], dtype=np.int64)) for t in topics]
    starts = np.cumsum(sizes) - sizes
    return Ranked(grades, starts, num_rel, num_nonrel,
                  running_sums(terms, np.array([len(i) for i in ideal])), levels)  # fmt: skip


def test_a_row_reads_only_what_it_needs_and_shared_arrays_are_built_once() -> None:
    ranked = _ranked([[1, 0, NONPOOL, 2], [0, 0, 1]])
    selection = parse_trec(["P.2", "iprec_at_recall", "11pt_avg"])
    context = Context(ranked, selection, 1, 10)
    values = precision_at(context, Row("P_2", "P", 2.0))
    assert values.tolist() == [0.5, 0.0]
    assert "cumulative" not in vars(context)  # P needs no c(r) at every position
    levels = [interpolated.at_level(context, p) for p in (0.0, 0.5, 1.0)]
    assert "cumulative" not in vars(context)  # nor iprec: precision at relevant positions
    assert "precision_found" in vars(context)
    assert interpolated.at_level(context, 0.5) is levels[1]  # built once, then shared
    mean = interpolated.eleven_point_average(context, Row("11pt_avg", "11pt_avg"))
    expected = sum(interpolated.at_level(context, p) for p in reversed(context.parameters(
        "11pt_avg"))) / 11  # fmt: skip
    assert mean.tolist() == expected.tolist()


def test_interpolated_precision_is_the_best_precision_at_or_below_over_every_rank() -> None:
    """The curve is built from the relevant positions alone; read at each level, it gives the
    highest c(r)/r over every rank at or below the cut-off's relevant document, bit for bit."""
    rng = np.random.default_rng(3)
    topics = [rng.choice([0, 0, 1, 2, NONPOOL], size=int(rng.integers(0, 40))).tolist()
              for _ in range(60)]  # fmt: skip
    ranked = _ranked(topics)
    context = Context(ranked, parse_trec(["iprec_at_recall"]), 1, 10)
    for fraction in (0.0, 0.1, 0.3, 0.5, 0.7, 1.0):
        values = interpolated.at_level(context, fraction)
        for t, grades in enumerate(topics):
            relevant = [r for r, g in enumerate(grades, 1) if g >= 1]
            needed = interpolated.recall_cutoff(fraction, int(ranked.num_rel[t]), 10)
            if not grades or needed > len(relevant) or not relevant:
                continue
            rank = relevant[max(needed, 1) - 1]
            best = max(sum(g >= 1 for g in grades[:r]) / r for r in range(rank, len(grades) + 1))
            assert values[t] == best, (t, fraction)


def test_topic_values_runs_each_rows_computation_and_the_geometric_transform() -> None:
    ranked = _ranked([[0, 1, 1, 0], [0, 0], [2, NONPOOL, 1]])
    selection = parse_trec(["map", "gm_map", "P.1,3", "num_q", "num_ret"])
    values = topic_values(ranked, selection, 1, 10)
    assert "num_q" not in values  # counted by the engine, not per topic
    assert values["num_ret"].tolist() == [4, 2, 3]  # type: ignore[union-attr]
    assert values["P_1"].tolist() == [0.0, 0.0, 1.0]  # type: ignore[union-attr]
    average = np.asarray(values["map"])
    assert average[0] == pytest.approx((1 / 2 + 2 / 3) / 2) and average[1] == 0.0
    assert np.asarray(values["gm_map"]).tolist() == np.log(np.maximum(average, 1e-5)).tolist()
    empty = topic_values(_ranked([]), selection, 1, 10)
    assert set(empty) == {row.name for row in selection.rows() if row.family != "num_q"}


def test_ndcg_rel_without_a_positive_ideal_gain_scores_0_as_trec_eval_does() -> None:
    """Gain 0.5 for grade 1 sorts below grade 0's gain (trec_eval compares gains by the integer
    part of their difference), so topic 1's ideal ranking has no positive gain while its
    relevant document gains: trec_eval 10.0's sum is ∞ − ∞ (NaN), not above 0, and it prints
    0 (`trec_eval -q -m ndcg_rel.1=0.5`); topic 2, with grade 2 judged, has its ideal: 1."""
    ranked = _ranked([[1, 0], [2, 1]])
    selection = parse_trec(["ndcg_rel.1=0.5"])
    values = np.asarray(topic_values(ranked, selection, 1, 10)["ndcg_rel_1=0.5"])
    assert values[0] == 0.0 and values[1] == pytest.approx(1.0)  # as trec_eval prints them


@pytest.mark.parametrize(("seed", "cells"), [(3, 1 << 20), (11, 1 << 20), (3, 300)])
def test_gain_families_give_each_topic_its_own_value_whatever_its_neighbours(
    seed: int, cells: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The walking families (ndcg_rel, Rndcg, G, and dcg, ideal_dcg and ndcg with gains given)
    compute all topics at once, in blocks of like length (`gain_table.gain_blocks`), of at most
    `cells` values: topics of 0 to 600 documents evaluated together give, bit for bit (NaN
    included), what each gives evaluated alone."""
    monkeypatch.setattr(gain_table, "_CELLS", cells)
    rng = np.random.default_rng(seed)
    sizes = [0, 1, 3, 40, 130, 600, 2, 129]
    topics = [rng.choice([-1, 0, 0, 1, 2, 3], size).tolist() for size in sizes]
    names = ["ndcg_rel.0=1,1=0.5,2=7", "Rndcg", "G.1=0.5,3=40", "dcg.1=3,2=9", "ideal_dcg",
             "ndcg.1=-2,2=5"]  # fmt: skip
    selection = parse_trec(names)
    together = topic_values(_ranked(topics), selection, 1, 10)
    alone = [topic_values(_ranked([topic]), selection, 1, 10) for topic in topics]
    assert len(together) == len(names)
    for name, values in together.items():
        expected = np.array([np.asarray(one[name])[0] for one in alone])
        assert np.asarray(values).view(np.int64).tolist() == expected.view(np.int64).tolist(), name
