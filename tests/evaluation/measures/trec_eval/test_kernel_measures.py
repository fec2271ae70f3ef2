"""trec_eval's families in C (_kernel_measures.c, through `measure_topics`): on random ranked
topics every row gives, bit for bit, the value the numpy families' `topic_values` gives, for
trec_eval's default set, the rest of `-m all_trec` (the gain families of _kernel_gains.c
through the same table, relstring's text) and unusual parameters, at levels 0..3, versions 9
and 10 and several -N; a family the C part does not compute makes the call answer None (the
caller takes the numpy engine), and a wrong call raises ValueError (docs/trec_eval.md, "The C
part")."""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.measures.trec_eval.engine.plain_pass import RowTuple, row_tuples
from focal.evaluation.measures.trec_eval.families.declarations import Selection, topic_values
from focal.evaluation.measures.trec_eval.families.ideal import running_sums
from focal.evaluation.measures.trec_eval.families.measure import Ranked
from focal.evaluation.measures.trec_eval.names import parse_trec

from .kernel_build import kernel_or_skip

KERNEL = kernel_or_skip()

# the -m lists whose every row the C families compute: the default set, all_trec, its families
# but the gain ones other than rbp, then unusual parameters (rbp's gains given in [0, 1], or
# rescaled, a document outside the pool given a gain; relstring's length 0 is its default)
SELECTIONS = (
    ("official",),
    ("all_trec",),
    ("recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "map_cut",
     "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
     "num_nonrel_judged_ret", "yaap", "rbp", "rbp_resid", "unj", "relstring"),
    ("P.1,2,3,7,1000000000", "recall.1,3", "iprec_at_recall.0.05,0.15,0.33,0.5,0.95",
     "Rprec_mult.0.1,0.5,3", "utility.2,-1,0.5,0.001", "11pt_avg.0.3,0.1", "set_F.0.5",
     "rbp.p=0.8,1=3,2=9", "relstring.20"),
    ("map_cut.1,2,4", "relative_P.2,7", "success.2,3", "set_F.3", "rbp_resid.p=0.5,p=0.7",
     "unj.1,3,7", "11pt_avg.1,0,0.5,0.25,0.75,0.95,0.05,0.45,0.55,0.65,0.85,0.15,0.35",
     "rbp.0=-1,1=0.5"),
    ("rbp.-1=2,0=0,p=0.95", "P.2", "relstring.0"),  # (one gain level alone: 0/0 in numpy)
    ("rbp.1=0.5,2=1,x=4", "P.2", "relstring.3"),
)  # fmt: skip
GRADES = (-2, -1, 0, 1, 2, 3)


class Topics:
    """Random topics as both sides take them: the buffers of measure_topics and a `Ranked`."""

    def __init__(self, retrieved: list[list[int]], unretrieved: list[list[int]], level: int):
        self.grades = np.array([g for t in retrieved for g in t], dtype=np.int64)
        sizes = np.array([len(t) for t in retrieved], dtype=np.int64)
        self.starts = (np.cumsum(sizes) - sizes).astype(np.int64)
        self.per_grade = [np.bincount(np.array([g for g in t + more if g >= 0], dtype=np.int64))
                          for t, more in zip(retrieved, unretrieved, strict=True)]  # fmt: skip
        floor = max(level, 0)
        self.num_rel = np.array([c[floor:].sum() for c in self.per_grade], dtype=np.int64)
        self.num_nonrel = np.array([c[:floor].sum() for c in self.per_grade], dtype=np.int64)
        ideal = [np.repeat(np.arange(len(c) - 1, 0, -1), c[:0:-1]) for c in self.per_grade]
        terms = np.concatenate([i / np.log2(np.arange(len(i)) + 2.0) for i in ideal] or [[]])
        sums = running_sums(terms.astype(np.float64), np.array([len(i) for i in ideal]))
        self.ranked = Ranked(self.grades, self.starts, self.num_rel, self.num_nonrel, sums,
                             self.per_grade)  # fmt: skip

    def measure(self, rows: Sequence[Any], level: int, version: int, num_docs: int) -> Any:
        return KERNEL.measure_topics(rows, level, version, num_docs, self.grades, self.starts,
                                     self.num_rel, self.num_nonrel, self.per_grade)  # fmt: skip


def same(a: float, b: float) -> bool:
    """The same double to the last bit (any NaN equal to a NaN)."""
    return (math.isnan(a) and math.isnan(b)) or struct.pack("<d", a) == struct.pack("<d", b)


def check_against_numpy(topics: Topics, selection: Selection, level: int, version: int,
                        num_docs: int) -> None:  # fmt: skip
    rows = row_tuples(selection)
    values = topics.measure(rows, level, version, num_docs)
    assert values is not None, "a family of the selection is not computed in C"
    expected = topic_values(topics.ranked, selection, level, version, num_docs)
    assert len(values) == len(topics.starts)
    names = [row.name for row in selection.rows() if row.family != "num_q"]
    assert len(names) == len(rows) == len(expected)
    for t, topic in enumerate(values):
        for name, value in zip(names, topic, strict=True):
            want = expected[name][t]
            if isinstance(want, str):  # relstring
                assert value == want, (name, t, value, want)
            else:
                assert same(value, float(want)), (name, t, value, want)


@st.composite
def random_topics(draw: st.DrawFn, level: int) -> Topics:
    count = draw(st.integers(0, 5))
    retrieved = [draw(st.lists(st.sampled_from(GRADES), max_size=60)) for _ in range(count)]
    unretrieved = [draw(st.lists(st.integers(0, 3), max_size=8)) for _ in range(count)]
    return Topics(retrieved, unretrieved, level)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(data=st.data(), names=st.sampled_from(SELECTIONS), level=st.integers(0, 3),
       version=st.sampled_from((9, 10)), num_docs=st.sampled_from((0, 7, 100_000)))  # fmt: skip
def test_every_row_is_the_numpy_familys_value_bit_for_bit(
    data: st.DataObject, names: tuple[str, ...], level: int, version: int, num_docs: int
) -> None:
    topics = data.draw(random_topics(level))
    check_against_numpy(topics, parse_trec(list(names)), level, version, num_docs)


@pytest.mark.parametrize("version", [9, 10])
def test_long_rankings_with_many_relevant_documents(version: int) -> None:
    """Topics of thousands of ranks, hundreds relevant (the scan's scratch then comes from the
    heap), and one retrieving nothing."""
    generator = np.random.default_rng(50)
    retrieved = [generator.choice(GRADES, size=size).tolist() for size in (3000, 700, 0, 257)]
    unretrieved = [generator.integers(0, 4, size=40).tolist() for _ in retrieved]
    for level in (1, 3):
        topics = Topics(retrieved, unretrieved, level)
        for names in SELECTIONS:
            check_against_numpy(topics, parse_trec(list(names)), level, version, 5000)


def test_no_topics_give_no_values() -> None:
    topics = Topics([], [], 1)
    assert topics.measure(row_tuples(parse_trec(["official"])), 1, 10, 0) == []


@pytest.mark.parametrize("row", [
    ("no_such_family", None, (), ()),
    ("num_q", None, (), ()),  # counted by the caller
    ("relstring", None, ("ten",), ()),  # a length that is not a number
    ("prefs_simp", None, (), ()),  # other judgements' family
    ("P", None, (), ()),  # a cut-off family without its cut-off
    ("P", 0.0, (), ()),  # a cut-off below 1
    ("P", math.inf, (), ()),
    ("iprec_at_recall", math.nan, (), ()),
    ("utility", None, (1.0, -1.0, 0.0), ()),  # three coefficients of four
    ("11pt_avg", None, tuple(i / 20 for i in range(20)), ()),  # more levels than a row holds
    ("set_F", None, (), ()),
    ("rbp_resid", None, (), (("p" * 40, 0.5),)),  # a pair's name too long for a row
])  # fmt: skip
def test_a_row_the_c_part_does_not_compute_gives_none(row: RowTuple) -> None:
    topics = Topics([[1, 0, -1]], [[2]], 1)
    rows = [("map", None, (), ()), row]
    assert topics.measure([rows[0]], 1, 10, 0) is not None
    assert topics.measure(rows, 1, 10, 0) is None


def _call(**changes: Any) -> Any:
    """measure_topics on a small valid call with some arguments changed."""
    arguments: dict[str, Any] = {
        "rows": [("map", None, (), ())], "level": 1, "version": 10, "num_docs": 0,
        "grades": np.array([1, 0, -1, -2, 2], dtype=np.int64),
        "starts": np.array([0, 3], dtype=np.int64),
        "num_rel": np.array([1, 1], dtype=np.int64),
        "num_nonrel": np.array([1, 0], dtype=np.int64),
        "per_grade": [np.array([1, 1], dtype=np.int64), np.array([0, 0, 1], dtype=np.int64)],
    }  # fmt: skip
    arguments.update(changes)
    return KERNEL.measure_topics(*arguments.values())


def test_the_small_call_is_valid() -> None:
    assert _call() == [(1.0,), (0.5,)]  # map: 1/1, then (1/2)/1


@pytest.mark.parametrize(("changes", "message"), [
    ({"grades": np.array([1.0, 0.0, -1.0, -2.0, 2.0])}, "grades: an int64 buffer"),
    ({"grades": np.array([1, 0, -1, -2, 2], dtype=np.int32)}, "grades: items of 8 bytes"),
    ({"starts": np.array([1, 3], dtype=np.int64)}, "starts must rise from 0"),
    ({"starts": np.array([0, 6], dtype=np.int64)}, "starts must rise from 0 within grades"),
    ({"starts": np.array([0, 3, 2], dtype=np.int64)}, "num_rel and num_nonrel"),
    ({"starts": np.array([0, 3, 2], dtype=np.int64), "num_rel": np.zeros(3, dtype=np.int64),
      "num_nonrel": np.zeros(3, dtype=np.int64),
      "per_grade": [np.array([1, 1, 1], dtype=np.int64)] * 3}, "starts must rise from 0"),
    ({"num_nonrel": np.array([1], dtype=np.int64)}, "num_rel and num_nonrel"),
    ({"per_grade": [np.array([1, 1], dtype=np.int64)]}, "per_grade must hold one buffer"),
    ({"per_grade": [np.array([1, 1], dtype=np.int64), np.array([0, -1, 1], dtype=np.int64)]},
     "cannot be negative"),
    ({"per_grade": [np.array([1, 1], dtype=np.int64), np.array([0, 1], dtype=np.int64)]},
     "a grade its topic's per_grade counts"),
    ({"grades": np.array([1, 0, -3, -2, 2], dtype=np.int64)}, "-2 (unjudged)"),
    ({"version": 8}, "version must be 9 or 10"),
])  # fmt: skip
def test_a_wrong_call_raises_value_error_naming_what_is_wrong(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _call(**changes)


@pytest.mark.parametrize("rows", [
    [("map", None)],  # a row of two fields
    [(1, None, (), ())],  # a family that is not a str
    [("P", "ten", (), ())],
    [("set_F", None, ("x",), ())],
    [("rbp_resid", None, (), (("p",),))],
    5,
])  # fmt: skip
def test_malformed_rows_raise_type_error(rows: Any) -> None:
    with pytest.raises(TypeError, match="measure rows"):
        _call(rows=rows)
