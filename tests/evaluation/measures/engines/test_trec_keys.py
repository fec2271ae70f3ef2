"""The article engine's integer look-ups and ranking: `KeyTable` against a dict, `ranking` against
Arrow's sort of the same rows, on random runs; fingerprint collisions forced to check that a
match is always confirmed on the pair itself."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluation.formats.arrow import binary_array, numeric_array, to_numpy
from evaluation.measures.engines import trec_keys
from evaluation.measures.engines.trec_keys import KeyTable, doc_words, has_duplicate
from evaluation.measures.engines.trec_order import ranking

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


def rows_of(table: KeyTable, pairs: list[tuple[int, bytes]]) -> list[int]:
    """The input rows of the records `find` gives for `pairs` (-1 stays -1)."""
    codes, docs = table_of(pairs)
    records = table.find(codes, docs, trec_keys.fingerprints(codes, docs))
    return [int(table.order[r]) if r >= 0 else -1 for r in records.tolist()]


@settings(max_examples=200, deadline=None)
@given(PAIRS, PAIRS)
def test_find_gives_the_qrels_row_of_each_pair(judged: list, asked: list) -> None:
    judged = list(dict.fromkeys(judged))  # qrels pairs are distinct
    table = KeyTable(*table_of(judged))
    assert not table.duplicate
    expected = [judged.index(p) if p in judged else -1 for p in asked]
    assert rows_of(table, asked) == expected


@settings(max_examples=100, deadline=None)
@given(PAIRS, PAIRS)
def test_colliding_fingerprints_never_match_other_pairs(judged: list, asked: list) -> None:
    """Every pair given one of two fingerprints: each probe meets many equal fingerprints, and
    only the pair's own row may answer it."""
    judged = list(dict.fromkeys(judged))
    real = trec_keys.fingerprints
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(trec_keys, "fingerprints", lambda codes, docs: real(codes, docs) & 1)
        table = KeyTable(*table_of(judged))
        found = rows_of(table, asked)
        codes, docs = table_of(asked)
        twice = has_duplicate(codes, docs, trec_keys.fingerprints(codes, docs))
    assert found == [judged.index(p) if p in judged else -1 for p in asked]
    assert twice == (len(set(asked)) < len(asked))


@settings(max_examples=100, deadline=None)
@given(PAIRS)
def test_duplicates_in_qrels_are_found_while_building(pairs: list) -> None:
    assert KeyTable(*table_of(pairs)).duplicate == (len(set(pairs)) < len(pairs))


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
    Arrow's order (NaN scores last, -0.0 equal to 0.0)."""
    if written_sorted:  # topic blocks in file order, scores falling: the common layout
        rows = sorted(rows, key=lambda r: (-r[0] % 3, -r[1]))
    rows = list({(r[0], r[2]): r for r in rows}.values())  # a document once per topic
    codes = np.array([r[0] for r in rows], dtype=np.int64)
    scores = np.array([r[1] for r in rows], dtype=np.float64)
    column = binary_array([r[2] for r in rows])
    order = ranking(codes, scores, doc_words(column), ties)
    expected = arrow_order(rows, ties)
    # rows equal in topic, score and document cannot occur (a document once per topic)
    assert order.tolist() == expected


@settings(max_examples=100, deadline=None)
@given(PAIRS, st.data())
def test_duplicates_among_chosen_rows_are_found(pairs: list, data: st.DataObject) -> None:
    """`has_duplicate` with the real fingerprints on a subset of rows: a pair repeated among
    the chosen rows is found, one repeated only outside them is not."""
    codes, docs = table_of(pairs)
    chosen = sorted(data.draw(st.sets(st.integers(0, max(0, len(pairs) - 1)))) if pairs else [])
    rows = np.array(chosen, dtype=np.int64)
    keys = trec_keys.fingerprints(codes, docs)
    picked = [pairs[i] for i in chosen]
    assert has_duplicate(codes, docs, keys, rows) == (len(set(picked)) < len(picked))
    assert has_duplicate(codes, docs, keys) == (len(set(pairs)) < len(pairs))
