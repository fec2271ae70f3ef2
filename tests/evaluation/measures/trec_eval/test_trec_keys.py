"""The article engine's look-ups and ranking: `PairIndex` (C) against a dict, `ranking` against
Arrow's sort of the same rows, on random runs; hash collisions forced (`weak`: a one-bit hash)
to check that a match is always confirmed on the pair itself."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.arrow import binary_array, numeric_array, to_numpy
from focal.evaluation.measures.trec_eval.engine import keys as trec_keys
from focal.evaluation.measures.trec_eval.engine.keys import PairIndex, column_buffers, doc_words
from focal.evaluation.measures.trec_eval.engine.order import c_ranking, ranking

try:  # the C part is optional: an install without a compiler has only the numpy path
    from focal.evaluation.measures.trec_eval.kernel import _article_kernel
except ImportError:
    _article_kernel = None
# These tests drive the C tables themselves (the numpy path: test_numpy_pairs.py).
NEEDS_C = pytest.mark.skipif(
    _article_kernel is None, reason="the optional C part is not built in this install"
)

# short ids, some sharing prefixes and some longer than a word, so lengths and words both matter
DOCS = st.sampled_from([b"", b"a", b"ab", b"abcdefgh", b"abcdefghi", b"abcdefgh\x00", b"z" * 17,
                        b"doc-000001", b"doc-000010", b"\xff\xfe", b"b"])  # fmt: skip
PAIRS = st.lists(st.tuples(st.integers(0, 4), DOCS), max_size=40)


def table_of(pairs: list[tuple[int, bytes]]) -> tuple[np.ndarray, trec_keys.DocWords]:
    codes = np.array([c for c, _ in pairs], dtype=np.int64)
    return codes, doc_words(binary_array([d for _, d in pairs]))


def test_words_hold_the_bytes_and_their_order() -> None:
    docs = doc_words(binary_array([b"ab", b"abcdefghi", b""]))
    assert docs.lengths.tolist() == [2, 9, 0]
    assert docs.words.shape == (2, 3)  # nine bytes need two words
    assert int(docs.words[0, 0]) == ord("a") + (ord("b") << 8)  # little-endian, zero-padded
    assert int(docs.words[1, 1]) == ord("i")
    order = np.lexsort(docs.order_keys(np.arange(3), descending=False))
    assert order.tolist() == [2, 0, 1]  # "" < "ab" < "abcdefghi", as bytes compare


def test_words_of_a_chunked_sliced_column_equal_those_of_the_whole() -> None:
    whole = binary_array([b"x", b"yy", b"zzzzzzzzzz", b"w"])
    chunked = pa.chunked_array([whole.slice(0, 1), whole.slice(1, 3)])
    a, b = doc_words(whole), doc_words(chunked)
    assert a.lengths.tolist() == b.lengths.tolist()
    assert a.words.tolist() == b.words.tolist()


def index_of(pairs: list[tuple[int, bytes]], topics: int = 5) -> PairIndex:
    codes = np.array([c for c, _ in pairs], dtype=np.int32)
    return PairIndex(codes, binary_array([d for _, d in pairs]), topics)


def found(index: PairIndex, pairs: list[tuple[int, bytes]], weak: bool = False,
          split: int = 1) -> list[int] | None:  # fmt: skip
    """`find_pairs` on `pairs` cut into chunks of `split` rows (a run read in batches)."""
    codes = np.array([c for c, _ in pairs], dtype=np.int32)
    column = binary_array([d for _, d in pairs])
    chunks = [column.slice(at, split) for at in range(0, len(pairs), split)]
    rows = np.empty(len(pairs), dtype=np.int64)
    offsets, data = column_buffers(index.docs)
    columns = [column_buffers(chunk) for chunk in chunks]
    if _article_kernel.find_pairs(columns, codes, index.bases, index.slots, offsets, data,
                                  index.spans, rows, weak=weak):  # fmt: skip
        return None
    return rows.tolist()


@NEEDS_C
@settings(max_examples=200, deadline=None)
@given(PAIRS, PAIRS, st.integers(1, 7))
def test_find_gives_the_qrels_row_of_each_pair(judged: list, asked: list, split: int) -> None:
    """Codes 5 and more are topics the qrels do not know: never found, still checked for
    repeats; the run's chunks may cut a topic's rows anywhere."""
    judged = list(dict.fromkeys((c % 5, d) for c, d in judged))  # qrels pairs are distinct
    asked = [(c * 2 % 7, d) for c, d in asked]
    index = index_of(judged)
    assert not index.duplicate
    expected = [judged.index(p) if p in judged else -1 for p in asked]
    repeated = len(set(asked)) < len(asked)
    assert found(index, asked, split=split) == (None if repeated else expected)
    wanted = index.find(np.array([c for c, _ in asked], dtype=np.int32),
                        binary_array([d for _, d in asked]))  # fmt: skip
    assert (None if wanted is None else wanted.tolist()) == (None if repeated else expected)
    # with values (here 100 + row, every third one negative), each row's value in place: -7
    # where not judged, -9 for a negative value
    values = np.where(np.arange(len(judged)) % 3 == 1, -1, 100 + np.arange(len(judged)))
    valued = index.find(
        np.array([c for c, _ in asked], dtype=np.int32),
        binary_array([d for _, d in asked]),
        values,
        missing=-7,
        negative=-9,
    )
    expected_values = [-7 if row < 0 else -9 if row % 3 == 1 else 100 + row for row in expected]
    assert (None if valued is None else valued.tolist()) == (None if repeated else expected_values)


@NEEDS_C
@settings(max_examples=100, deadline=None)
@given(PAIRS, PAIRS)
def test_colliding_hashes_never_match_other_pairs(judged: list, asked: list) -> None:
    """Every id hashed to one of two values: each probe meets many equal hashes, and only the
    pair's own row may answer it; repeats are told from collisions on the bytes."""
    judged = list(dict.fromkeys(judged))
    codes = np.array([c for c, _ in judged], dtype=np.int32)
    index = index_of(judged)
    index.slots[:] = 0
    offsets, data = column_buffers(index.docs)
    assert not _article_kernel.index_pairs(
        codes, offsets, data, index.bases, index.slots, weak=True
    )
    repeated = len(set(asked)) < len(asked)
    expected = [judged.index(p) if p in judged else -1 for p in asked]
    assert found(index, asked, weak=True) == (None if repeated else expected)


@NEEDS_C
@settings(max_examples=100, deadline=None)
@given(PAIRS)
def test_duplicates_in_qrels_are_found_while_building(pairs: list) -> None:
    assert index_of(pairs).duplicate == (len(set(pairs)) < len(pairs))


@NEEDS_C
def test_repeats_are_found_when_a_topic_comes_back() -> None:
    """A topic split into two blocks: the check over the whole run finds the repeat."""
    index = index_of([(0, b"a")])
    assert found(index, [(1, b"x"), (2, b"y"), (1, b"z"), (2, b"q")]) == [-1, -1, -1, -1]
    assert found(index, [(1, b"x"), (2, b"y"), (1, b"x")], split=2) is None
    assert found(index, [(0, b"a"), (1, b"a"), (0, b"a")]) is None


@NEEDS_C
def test_wrong_buffers_are_refused_not_read() -> None:
    """The C side checks what it is given: offsets past the bytes, codes beyond the tables, a
    table that is not cut into powers of two or not of 32-bit slots, or too few result slots
    raise ValueError."""
    index = index_of([(0, b"a"), (1, b"bb")])
    offsets, data = column_buffers(index.docs)
    codes = np.array([0, 1], dtype=np.int32)
    with pytest.raises(ValueError, match="offsets"):
        _article_kernel.index_pairs(codes, np.array([0, 1, 99], np.int32), data, index.bases,
                                np.zeros_like(index.slots))  # fmt: skip
    with pytest.raises(ValueError, match="code"):
        _article_kernel.index_pairs(np.array([0, 9], np.int32), offsets, data, index.bases,
                                np.zeros_like(index.slots))  # fmt: skip
    with pytest.raises(ValueError, match="powers of two"):
        _article_kernel.index_pairs(codes, offsets, data, np.array([0, 3, 4], np.int64),
                                np.zeros(4, np.uint32))  # fmt: skip
    with pytest.raises(ValueError, match="slots: items of 4 bytes"):  # slots are 32 bits
        _article_kernel.index_pairs(codes, offsets, data, index.bases,
                                    index.slots.astype(np.uint64))  # fmt: skip
    with pytest.raises(ValueError, match="match the rows"):
        _article_kernel.find_pairs([(offsets, data)], codes, index.bases, index.slots, offsets,
                               data, index.spans, np.empty(1, np.int64))  # fmt: skip
    with pytest.raises(ValueError, match="match the rows"):  # values: one a qrels row
        index.find(codes, binary_array([b"a", b"bb"]), np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="items of 4 bytes"):
        _article_kernel.find_pairs([(offsets, data)], codes.astype(np.int64), index.bases,
                                   index.slots, offsets, data, index.spans,
                                   np.empty(2, np.int64))  # fmt: skip


ROWS = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from([0.5, 1.0, 1.0, 2.0, -0.0, 0.0, float("nan"), float("inf"), float("-inf")]),
        DOCS,
    ),
    max_size=30,
)


def arrow_order(rows: list, ties: str) -> list[int]:
    table = pa.Table.from_arrays(
        [numeric_array(np.array([r[0] for r in rows], dtype=np.int64)),
         numeric_array(np.array([r[1] for r in rows], dtype=np.float64)),
         binary_array([r[2] for r in rows])],
        names=["topic", "score", "doc"],
    )  # fmt: skip
    keys = [("topic", "ascending"), ("score", "descending"), ("doc", ties)]
    return to_numpy(pc.sort_indices(table, sort_keys=keys)).tolist()


@settings(max_examples=300, deadline=None)
@given(ROWS, st.sampled_from(["descending", "ascending"]), st.booleans())
def test_ranking_is_the_sort_of_trec_eval(rows: list, ties: str, written_sorted: bool) -> None:
    """Files already in trec_eval's order (blocks in any topic order, ties in any document order)
    take the path without a sort; the others the full sort on integer columns: both must give
    Arrow's order (-0.0 equal to 0.0), but for a topic holding a NaN score ranked with ties
    descending: trec_eval's comparator places those by its merge sort
    (`test_nan_is_placed_as_trec_eval_places_it`)."""
    if written_sorted:  # topic blocks in file order, scores falling: the common layout
        rows = sorted(rows, key=lambda r: (-r[0] % 3, -r[1]))
    rows = list({(r[0], r[2]): r for r in rows}.values())  # a document once per topic
    codes = np.array([r[0] for r in rows], dtype=np.int64)
    scores = np.array([r[1] for r in rows], dtype=np.float64)
    column = binary_array([r[2] for r in rows])
    order = ranking(codes, scores, pa.chunked_array([column]), ties)
    expected = arrow_order(rows, ties)
    # rows equal in topic, score and document cannot occur (a document once per topic)
    if ties == "descending":
        with_nan = {r[0] for r in rows if r[1] != r[1]}
        assert sorted(order.tolist()) == list(range(len(rows)))
        order = np.array([i for i in order.tolist() if rows[i][0] not in with_nan])
        expected = [i for i in expected if rows[i][0] not in with_nan]
    assert order.tolist() == expected


def test_nan_is_placed_as_trec_eval_places_it() -> None:
    """a scores 1, b NaN, c 2 (read in id order a, b, c). glibc's merge sort with 10.0's
    comparator: [b, c] merged from [b] and [c]: NaN is neither above nor below 2, so ids decide
    (c first); then [a] with [c, b]: 1 < 2 puts c first, a against b (NaN) goes by ids, b
    first: c, b, a, where Arrow's order puts NaN last (c, a, b)."""
    column = pa.chunked_array([binary_array([b"a", b"b", b"c"])])
    scores = np.array([1.0, float("nan"), 2.0])
    order = ranking(np.zeros(3, dtype=np.int64), scores, column)
    assert order.tolist() == [2, 1, 0]
    assert c_ranking([b"a", b"c"], [1.0, 2.0]) == [1, 0]  # no NaN: score descending


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 1.0, 2.5, -1.0]), DOCS), max_size=20))
def test_c_ranking_without_nan_is_the_plain_order(rows: list) -> None:
    """Without NaN the comparator is a total order: score descending, then id descending."""
    rows = sorted({doc: (score, doc) for score, doc in rows}.values(), key=lambda r: r[1])
    placed = c_ranking([r[1] for r in rows], [r[0] for r in rows])
    by_id = sorted(rows, key=lambda r: r[1], reverse=True)
    assert [rows[i] for i in placed] == sorted(by_id, key=lambda r: -r[0])  # (a stable sort)


def test_words_of_chosen_rows_are_those_of_the_whole_column() -> None:
    """`doc_words(column, rows)` across chunks, rows in any order and repeated, equals the words
    of every row, taken at those rows."""
    whole = binary_array([b"x", b"yy", b"zzzzzzzzzz", b"w", b"", b"abcdefghijk"])
    chunked = pa.chunked_array([whole.slice(0, 2), whole.slice(2, 1), whole.slice(3, 3)])
    rows = np.array([5, 0, 2, 2, 4, 3], dtype=np.int64)
    every, some = doc_words(whole), doc_words(chunked, rows)
    assert some.lengths.tolist() == every.lengths[rows].tolist()
    assert some.words.tolist() == every.words[:, rows].tolist()
