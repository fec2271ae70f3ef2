"""The numpy path of the article engine's look-ups (`kernel/numpy_pairs.py`): on random qrels
and runs, `PairIndex` built with `FOCAL_KERNEL=numpy` answers exactly what the C tables answer
(forced hash collisions included: `weak`), and what a dict written from the C code's rules
answers; the second comparison runs without the compiled module too.

The rules (`_kernel_index.c`, `_kernel_pairs.c`): the qrels' tables stop filling at the first
row whose pair an earlier row has (`duplicate`), the rows before it answer; a run row's pair
gives the qrels row holding it, or -1 (codes from `topics` on are topics the qrels do not know);
with `values`, that row's value (`negative` for a value below 0, `missing` where not judged);
a run naming any pair twice, judged or not, gets None.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.arrow import binary_array
from focal.evaluation.measures.trec_eval import kernel
from focal.evaluation.measures.trec_eval.engine.keys import PairIndex, column_buffers
from focal.evaluation.measures.trec_eval.kernel.numpy_pairs import NumpyPairs

try:  # (the module as the install built it, whatever FOCAL_KERNEL says)
    from focal.evaluation.measures.trec_eval.kernel import _article_kernel as C_MODULE
except ImportError:
    C_MODULE = None
NO_C = "this install has no compiled module (_article_kernel): nothing to compare with"

# ids sharing prefixes, longer than a word, empty, with NUL and non-ASCII bytes: what the
# bytes' equality (not a hash, not a prefix) must tell apart; some are not UTF-8 (string
# columns take the others)
TEXT_DOCS = [b"", b"a", b"ab", b"abcdefgh", b"abcdefghi", b"z" * 17, b"doc-000001", b"doc-00001"]
DOCS = st.sampled_from([*TEXT_DOCS, b"abcdefgh\x00", b"\x00", b"\xff\xfe"])
KINDS = st.sampled_from([pa.binary(), pa.large_binary(), pa.string(), pa.large_string()])


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    """Qrels pairs (sometimes a pair twice, sometimes topics without rows), a run's pairs
    (unknown topics, sometimes a pair twice) cut into chunks, values with negatives; ids as
    binary or string columns, 32- or 64-bit offsets, the run's maybe not the qrels' kind."""
    topics = draw(st.integers(0, 5))
    kind, asked_kind = draw(KINDS), draw(KINDS)  # the qrels' ids and the run's
    text = any(pa.types.is_string(k) or pa.types.is_large_string(k) for k in (kind, asked_kind))
    docs = st.sampled_from(TEXT_DOCS) if text else DOCS
    judged = draw(st.lists(st.tuples(st.integers(0, topics - 1), docs), max_size=30)
                  if topics else st.just([]))  # fmt: skip
    if not draw(st.booleans()):
        judged = list(dict.fromkeys(judged))  # half the qrels judge each pair once
    asked = draw(st.lists(st.tuples(st.integers(0, topics + 3), docs), max_size=30))
    if draw(st.booleans()):
        asked = list(dict.fromkeys(asked))
    cuts = sorted(draw(st.lists(st.integers(0, len(asked)), max_size=4)))
    values = draw(st.lists(st.integers(-3, 6), min_size=len(judged), max_size=len(judged)))
    return {"topics": topics, "kind": kind, "asked_kind": asked_kind, "judged": judged,
            "asked": asked, "cuts": cuts, "values": np.array(values, dtype=np.int64),
            "missing": draw(st.integers(-9, 9)), "negative": draw(st.integers(-9, 9))}  # fmt: skip


def column(docs: list[bytes], kind: Any, cuts: Sequence[int] = ()) -> Any:
    """The ids as an Arrow array of `kind`, or a chunked array cut at `cuts` (slices of one
    array: chunks that start inside their buffers)."""
    whole = binary_array(docs).cast(kind)
    if not cuts:
        return whole
    bounds = [0, *cuts, len(docs)]
    return pa.chunked_array([whole.slice(a, b - a) for a, b in itertools.pairwise(bounds)], kind)


def codes_of(pairs: list[tuple[int, bytes]]) -> np.ndarray:
    return np.array([c for c, _ in pairs], dtype=np.int32)


def model(case: dict[str, Any]) -> tuple[bool, list[int] | None, list[int] | None]:
    """The C code's rules, written with a dict: duplicate, rows found, values found."""
    table: dict[tuple[int, bytes], int] = {}
    duplicate = False
    for row, pair in enumerate(case["judged"]):
        if pair in table:
            duplicate = True
            break
        table[pair] = row
    asked = case["asked"]
    if len(set(asked)) < len(asked):
        return duplicate, None, None
    rows = [table.get(pair, -1) for pair in asked]
    values = case["values"].tolist()
    answers = [case["missing"] if r < 0 else case["negative"] if values[r] < 0 else values[r]
               for r in rows]  # fmt: skip
    return duplicate, rows, answers


def answers(index: PairIndex | NumpyPairs, case: dict[str, Any]) -> tuple[Any, ...]:
    """`duplicate`, and `find` without and with values, as lists."""
    codes = codes_of(case["asked"])
    docs = column([d for _, d in case["asked"]], case["asked_kind"], case["cuts"])
    rows = index.find(codes, docs)
    values = index.find(codes, docs, case["values"], case["missing"], case["negative"])
    return (index.duplicate, None if rows is None else rows.tolist(),
            None if values is None else values.tolist())  # fmt: skip


@pytest.fixture
def numpy_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`FOCAL_KERNEL=numpy` for the test: `kernel.compiled()` is None."""
    monkeypatch.setenv("FOCAL_KERNEL", "numpy")
    assert kernel.compiled() is None
    yield


def built(case: dict[str, Any]) -> PairIndex:
    judged = case["judged"]
    return PairIndex(codes_of(judged), column([d for _, d in judged], case["kind"]),
                     case["topics"])  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(cases())
def test_numpy_answers_what_the_rules_say(case: dict[str, Any]) -> None:
    """Without the compiled module as with it: this comparison needs no C."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOCAL_KERNEL", "numpy")
        index = built(case)
    assert index.numpy is not None  # the numpy path answered
    assert answers(index, case) == model(case)


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@settings(max_examples=300, deadline=None)
@given(cases())
def test_numpy_answers_what_the_c_tables_answer(case: dict[str, Any]) -> None:
    """The same qrels and run, the index built both ways; the qrels' repeats included (the C
    tables then hold the rows before the first repeat, and so does the numpy index)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOCAL_KERNEL", "numpy")
        by_numpy = built(case)
        patch.setenv("FOCAL_KERNEL", "c")
        by_c = built(case)
    assert by_numpy.numpy is not None and by_c.numpy is None
    assert answers(by_numpy, case) == answers(by_c, case)


@pytest.mark.skipif(C_MODULE is None, reason=NO_C)
@settings(max_examples=150, deadline=None)
@given(cases())
def test_numpy_answers_what_colliding_c_tables_answer(case: dict[str, Any]) -> None:
    """The C tables filled and probed with a one-bit hash (`weak`: every probe meets many
    equal hashes): still the same rows, the same repeats, as the numpy index."""
    assert C_MODULE is not None
    judged, asked = case["judged"], case["asked"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOCAL_KERNEL", "c")
        index = built(case)
    offsets, data = column_buffers(index.docs)
    index.slots[:] = 0
    duplicate = C_MODULE.index_pairs(codes_of(judged), offsets, data, index.bases, index.slots,
                                     weak=True)  # fmt: skip
    docs = column([d for _, d in asked], case["asked_kind"], case["cuts"])
    chunks = docs.chunks if isinstance(docs, pa.ChunkedArray) else [docs]
    found = np.empty(len(asked), dtype=np.int64)
    repeated = C_MODULE.find_pairs([column_buffers(chunk) for chunk in chunks], codes_of(asked),
                                   index.bases, index.slots, offsets, data, index.spans, found,
                                   weak=True)  # fmt: skip
    numpy_index = NumpyPairs(codes_of(judged), column([d for _, d in judged], case["kind"]),
                             case["topics"])  # fmt: skip
    expected = numpy_index.find(codes_of(asked), docs)
    assert duplicate == numpy_index.duplicate
    assert (None if repeated else found.tolist()) == (None if expected is None else
                                                      expected.tolist())  # fmt: skip


def test_a_large_table_against_the_rules(numpy_path: None) -> None:
    """Thousands of topics and rows (ids shared across topics, a run with half its rows
    judged, in another order): each row its own qrels row, values in place."""
    rng = np.random.default_rng(7)
    topics, judged_rows = 3000, 20000
    codes = np.sort(rng.integers(0, topics, judged_rows)).astype(np.int32)
    ids = rng.integers(0, 5000, judged_rows)
    pairs = list(dict.fromkeys(zip(codes.tolist(), [b"d%d" % i for i in ids], strict=True)))
    index = PairIndex(codes_of(pairs), binary_array([d for _, d in pairs]), topics)
    strangers = zip(rng.integers(0, topics + 5, 20000), rng.integers(0, 8000, 20000), strict=True)
    asked = list(dict.fromkeys(pairs[::2] + [(int(c), b"d%d" % i) for c, i in strangers]))
    random.Random(7).shuffle(asked)
    where = {pair: row for row, pair in enumerate(pairs)}
    found = index.find(codes_of(asked), pa.chunked_array([binary_array([d for _, d in asked])]))
    assert found is not None
    assert found.tolist() == [where.get(pair, -1) for pair in asked]
    assert (found >= 0).sum() >= len(pairs) // 2  # the judged half, at least, was found


def test_bad_calls_are_refused_by_name(numpy_path: None) -> None:
    """What the C part refuses, the numpy path refuses too, saying what is wrong."""
    docs = binary_array([b"a", b"b"])
    with pytest.raises(ValueError, match="code outside"):
        PairIndex(np.array([0, 3], np.int32), docs, 2)
    with pytest.raises(ValueError, match="code outside"):
        PairIndex(np.array([0, -1], np.int32), docs, 2)
    with pytest.raises(ValueError, match="one code a row"):
        NumpyPairs(np.array([0], np.int32), docs, 2)
    with pytest.raises(ValueError, match="may not be null"):
        PairIndex(np.array([0, 1], np.int32), pa.array([b"a", None], pa.binary()), 2)
    index = PairIndex(np.array([0, 1], np.int32), docs, 2)
    with pytest.raises(ValueError, match="negative"):
        index.find(np.array([0, -1], np.int32), pa.chunked_array([docs]))
    with pytest.raises(ValueError, match="values do not match the rows"):
        index.find(np.array([0, 1], np.int32), pa.chunked_array([docs]), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="one code a row"):
        index.find(np.array([0], np.int32), pa.chunked_array([docs]))


def test_empty_qrels_and_runs(numpy_path: None) -> None:
    """No judged rows, no topics, no chunks: nothing found, nothing repeated."""
    empty = PairIndex(np.zeros(0, np.int32), binary_array([]), 0)
    assert not empty.duplicate
    found = empty.find(np.array([0, 1], np.int32), pa.chunked_array([binary_array([b"a"] * 2)]))
    assert found is not None and found.tolist() == [-1, -1]
    index = PairIndex(np.array([0], np.int32), binary_array([b"a"]), 1)
    none = index.find(np.zeros(0, np.int32), pa.chunked_array([], pa.binary()))
    assert none is not None and none.tolist() == []


@settings(max_examples=300, deadline=None)
@given(cases(), st.integers(1, 3))
def test_colliding_hashes_answer_what_the_rules_say(case: dict[str, Any], bits: int) -> None:
    """Hashes cut to a few bits (every pair meets others of the same hash, qrels' and run's):
    the answers are still the rules', confirmed on the bytes or given by the exact index."""
    judged = case["judged"]
    index = NumpyPairs(codes_of(judged), column([d for _, d in judged], case["kind"]),
                       case["topics"], bits=bits)  # fmt: skip
    assert answers(index, case) == model(case)


def test_long_ids_and_shared_prefixes(numpy_path: None) -> None:
    """Ids of many words that differ only in their last byte, or only in their length (a
    trailing NUL), judged in many topics: each run row finds its own row, never a neighbour's."""
    stems = [b"x" * n for n in (0, 7, 8, 9, 63, 64, 65)]
    docs = [stem + tail for stem in stems for tail in (b"", b"\x00", b"a", b"b")]
    pairs = [(t, d) for t in range(3) for d in docs]
    index = PairIndex(codes_of(pairs), binary_array([d for _, d in pairs]), 3)
    asked = [*pairs[::-1], (3, docs[0]), (0, b"x" * 66)]
    found = index.find(codes_of(asked), pa.chunked_array([binary_array([d for _, d in asked])]))
    assert found is not None
    where = {pair: row for row, pair in enumerate(pairs)}
    assert found.tolist() == [where.get(pair, -1) for pair in asked]
    assert not index.duplicate
