"""The whole-file pass with numpy (`trec_eval.numpy_pass`) against the C pass
(`engine/plain_pass.py`): on random plain files (grouped by topic or not, topics in byte order
or not, cut into chunks and blocks of a few bytes, their lines kept or read again), the same
topics with the same values to the bit, the same run id and unknown topics, the same stop at
the same topic; every file the C pass declines declined too. Scores are read as `float` reads
them, bit for bit."""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.measures.registry.names import parse_trec
from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainStop,
    open_plain_pass,
    row_tuples,
)
from focal.evaluation.measures.trec_eval.names import NOT_IN_9
from focal.evaluation.measures.trec_eval.numpy_pass import block, fields, look, passes, values
from focal.evaluation.measures.trec_eval.numpy_pass.passes import open_numpy_pass
from focal.evaluation.measures.trec_eval.numpy_pass.topics import Lines

from ...fresh_trec_eval import fresh_trec_eval
from .kernel_build import kernel
from .test_plain_pass import (
    LAYOUTS,
    OPTIONS,
    SETS,
    collections,
    examples,
    qrels_lines,
    run_lines,
    same_bits,
    write,
)

# chunk and block bytes, block topics, memory budget (0: every file read again a block at a time)
SIZES = st.sampled_from([(16, 1, 0), (64, 3, 0), (1 << 20, 2048, 0), (16, 1, 1 << 20),
                         (64, 3, 1 << 20), (1 << 20, 2048, 1 << 20)])  # fmt: skip


def outcome(opened: Any) -> tuple[list[tuple[Any, ...]], tuple[str, str, str] | None]:
    """Each topic yielded (its values apart), and where the pass stopped."""
    topics: list[tuple[Any, ...]] = []
    try:
        for topic in opened:
            topics.append((topic.topic, topic.answered, topic.values, topic.positive,
                           topic.judged))  # fmt: skip
    except PlainStop as stop:
        return topics, (stop.topic, stop.reason, stop.document)
    return topics, None


def both(paths: tuple[str, str], rows: list[Any], options: PlainOptions,
         size: tuple[int, int, int]) -> tuple[Any, Any]:  # fmt: skip
    kernel()  # (skips without the C part: it is what the numpy pass is compared with)
    compiled = open_plain_pass(*paths, rows, options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(look, "CHUNK", size[0])
        patch.setattr(passes, "BLOCK", size[0])
        patch.setattr(passes, "BLOCK_LARGE", 2 * size[0])  # (files above 256 bytes: both sizes)
        patch.setattr(passes, "LARGE", 256)
        patch.setattr(passes, "BLOCK_TOPICS", size[1])
        patch.setattr(look, "KEEP", size[2])
        mine = open_numpy_pass(*paths, rows, options)
        if compiled is None or mine is None:
            return compiled, mine
        return (compiled.run_id, compiled.unknown, outcome(compiled)), \
            (mine.run_id, mine.unknown, outcome(mine))  # fmt: skip


def assert_same(c_answer: Any, numpy_answer: Any) -> None:
    assert c_answer is not None and numpy_answer is not None
    (c_id, c_unknown, (c_topics, c_stop)), (n_id, n_unknown, (n_topics, n_stop)) = \
        c_answer, numpy_answer  # fmt: skip
    assert (n_id, n_unknown, n_stop) == (c_id, c_unknown, c_stop)
    assert [t[:2] + t[3:] for t in n_topics] == [t[:2] + t[3:] for t in c_topics]
    for mine, theirs in zip(n_topics, c_topics, strict=True):
        assert (mine[2] is None) == (theirs[2] is None), mine[0]
        if mine[2] is not None:
            assert len(mine[2]) == len(theirs[2])
            assert all(same_bits(a, b) for a, b in zip(mine[2], theirs[2], strict=True)), mine[0]


@examples(150)
@given(collections(), OPTIONS, LAYOUTS, st.integers(0, 99), st.booleans(), SIZES,
       st.sampled_from(SETS))  # fmt: skip
def test_each_topic_as_the_c_pass(tmp_path: Path, files: Any, options: tuple[Any, ...],
                                  layout: str, seed: int, last_newline: bool,
                                  size: tuple[int, int, int], spec: list[str]) -> None:  # fmt: skip
    qrels, run = files
    if not qrels or not run:
        return
    level, version, max_docs, judged_only, complete, num_docs = options
    paths = write(tmp_path, qrels_lines(qrels), run_lines(run), layout, seed, last_newline)
    if version == 9:
        spec = [name for name in spec if name.split(".")[0] not in NOT_IN_9]
    selection = parse_trec(spec, version)
    chosen = PlainOptions(level, version, num_docs, max_docs, judged_only, complete)
    assert_same(*both(paths, row_tuples(selection), chosen, size))


@examples(120)
@given(collections(duplicates=True), OPTIONS, LAYOUTS, st.integers(0, 99), SIZES)
def test_stops_where_the_c_pass_stops(tmp_path: Path, files: Any, options: tuple[Any, ...],
                                      layout: str, seed: int,
                                      size: tuple[int, int, int]) -> None:  # fmt: skip
    """Documents twice in a topic of either file (and qrels topics repeated in the run's
    order): the same topics before the stop, the same stop."""
    qrels, run = files
    if not qrels or not run:
        return
    level, version, max_docs, judged_only, complete, _ = options
    lines = qrels_lines(qrels)
    rng = random.Random(seed)
    if lines and rng.random() < 0.5:  # a qrels line twice
        lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))
    paths = write(tmp_path, lines, run_lines(run), layout, seed)
    chosen = PlainOptions(level, version, 0, max_docs, judged_only, complete)
    rows = row_tuples(parse_trec(["official"], version))
    assert_same(*both(paths, rows, chosen, size))


@pytest.mark.parametrize("qrels, run", [
    ("1 0 a 1\n", "1 Q0 a 1 nan r\n"),  # not a plain score
    ("1 0 a 1\n", "1 Q0 a 1 inf r\n"),
    ("1 0 a 1\n", "1 Q0 a 1 .5 r\n"),
    ("1 0 a 1\n", "1 Q0 a 1 1. r\n"),
    ("1 0 a 1\n", "1 Q0 a 1 +1 r\n"),
    ("1 0 a 1\n", "1 Q0  a 1 1 r\n"),  # an empty field
    ("1 0 a 1\n", "1 Q0 a 1 1 r \n"),
    ("1 0 a 1\n", "1 Q0 a\t1 1 r\n"),
    ("1 0 a 1\n", "1 Q0 a 1 1 r\r\n"),
    ("1 0 a#b 1\n", "1 Q0 a 1 1 r\n"),  # `#`
    ("1 0 a\x7fb 1\n", "1 Q0 a 1 1 r\n"),  # DEL
    ("1 0 a 1 x\n", "1 Q0 a 1 1 r\n"),  # five fields
    ("1 0 a 1.5\n", "1 Q0 a 1 1 r\n"),  # not an integer grade
    ("1 0 a 99999999\n", "1 Q0 a 1 1 r\n"),
    ("1 0 \xe9 1\n", "1 Q0 a 1 1 r\n"),  # not ASCII
    ("", "1 Q0 a 1 1 r\n"),  # empty
])  # fmt: skip
def test_declines_what_the_c_pass_declines(tmp_path: Path, qrels: str, run: str) -> None:
    paths = write(tmp_path, [qrels], [run], "grouped", 0)
    rows = row_tuples(parse_trec(["official"], 10))
    kernel()
    assert open_plain_pass(*paths, rows, PlainOptions()) is None
    assert open_numpy_pass(*paths, rows, PlainOptions()) is None


def test_declines_grades_above_its_table(tmp_path: Path) -> None:
    """A grade above GRADE_LIMIT (which the C pass takes) leaves the file to the engine."""
    rows = row_tuples(parse_trec(["official"], 10))
    paths = write(tmp_path, [f"1 0 a {values.GRADE_LIMIT + 1}\n"], ["1 Q0 a 1 1 r\n"], "grouped", 0)
    assert open_numpy_pass(*paths, rows, PlainOptions()) is None
    paths = write(tmp_path, [f"1 0 a {values.GRADE_LIMIT}\n"], ["1 Q0 a 1 1 r\n"], "grouped", 0)
    assert open_numpy_pass(*paths, rows, PlainOptions()) is not None


PLAIN = re.compile(rb"-?\d+(\.\d+)?([eE][+-]?\d+)?\Z")


def _read(texts: list[bytes], grades: bool = False) -> Any:
    """`values.scores` (or `values.grades`) of the texts, one space apart in a padded buffer."""
    data = b" ".join(texts) + (b"\n" if grades else b" ")
    buffer = np.zeros(len(data) + fields.PAD, dtype=np.uint8)
    buffer[: len(data)] = np.frombuffer(data, np.uint8)
    lengths = np.array([len(t) for t in texts], dtype=np.int64)
    starts = np.cumsum(lengths + 1) - lengths - 1
    read = values.grades if grades else values.scores
    return read(buffer, fields.raw_words(buffer), starts, lengths)


def test_scores_read_as_float_reads_them() -> None:
    """Random scores of the plain form (short and long, exponents, 17-digit repr()s, signed
    zeros, overflow): the bits of `float`; any other text refused."""
    rng = random.Random(5)
    alphabet = b"0123456789.-+eE"
    plain: list[bytes] = [b"-0", b"0", b"-0.0", b"1e400", b"-1e400", b"1e-400", b"9" * 30]
    other: list[bytes] = []
    for _ in range(20000):
        kind = rng.random()
        if kind < 0.4:
            text = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 12)))
        elif kind < 0.7:
            text = b"%.*f" % (rng.randint(0, 20), rng.uniform(-1e6, 1e6))
        else:
            text = repr(rng.uniform(-10, 10) * 10.0 ** rng.randint(-40, 40)).encode()
        (plain if PLAIN.match(text) else other).append(text)
    got = _read(plain)
    assert got is not None
    want = np.array([float(t) for t in plain])
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    assert all(math.isfinite(v) or abs(v) == math.inf for v in got.tolist())
    for text in other[:2000]:
        assert _read([b"1", text]) is None, text
    for text in [b"\xb5", b"1\xb5", b"-\xb5", b"1.\xb5", b"\xb1.5", b"1.5\xff", b"-1.\xb0"]:
        assert _read([b"1", text]) is None, text  # (bytes above 0x7F: digits' high-bit twins)


LINE_BYTES = b"ab09.-# \n\t\r\x00\x7f\x80\xff"
PLAIN_FIELD = rb"[\x21\x22\x24-\x7e]+"


@pytest.mark.parametrize("count", [4, 6])
def test_split_finds_plain_lines_as_a_pattern_does(count: int) -> None:
    """Random lines of letters, digits, spaces, newlines, `#`, control bytes and bytes above
    0x7E: split's bounds where every line is `count` plain fields one space apart, None
    otherwise; the same bounds without the strict checks on plain lines."""
    rng = random.Random(count)
    line = re.compile(PLAIN_FIELD + rb"(?: " + PLAIN_FIELD + rb"){%d}\n" % (count - 1))
    found = 0
    for _ in range(3000):
        if rng.random() < 0.5:  # plain lines, then perhaps one byte changed
            text = bytearray(b"".join(b" ".join(bytes(rng.choices(b"ab09.-", k=rng.randint(1, 9)))
                                                for _ in range(count)) + b"\n"
                                      for _ in range(rng.randint(1, 4))))  # fmt: skip
            if rng.random() < 0.5:
                text[rng.randrange(len(text))] = rng.choice(LINE_BYTES)
        else:
            text = bytearray([*rng.choices(LINE_BYTES, k=rng.randint(1, 40)), 10])
        data = np.frombuffer(bytes(text), dtype=np.uint8)
        got = fields.split(data, count)
        lines = bytes(text).split(b"\n")
        plain = lines[-1] == b"" and all(line.fullmatch(part + b"\n") for part in lines[:-1])
        if not plain:
            assert got is None, bytes(text)
            continue
        found += 1
        wanted = [i for i, byte in enumerate(text) if byte in b" \n"]
        assert got is not None and got.ravel().tolist() == wanted, bytes(text)
        loose = fields.split(data, count, strict=False)
        assert loose is not None and loose.ravel().tolist() == wanted
    assert found > 500


@pytest.mark.parametrize("length", [1, 7, 8, 9, 15, 16, 17, 24, 30])
def test_ids_read_to_the_buffer_end(length: int) -> None:
    """Ids of up to 30 bytes, the last ones (the longest, then one byte) ending where the
    buffer's padding starts: their words sort and compare as their bytes, and read back as the
    ids."""
    rng = random.Random(length)
    ids = [bytes(rng.choices(b"!az~09", k=rng.randint(1, length))) for _ in range(200)]
    ids[-2:] = [b"~" * length, b"!"]
    data = b" ".join(ids)
    buffer = np.zeros(len(data) + fields.PAD, dtype=np.uint8)
    buffer[: len(data)] = np.frombuffer(data, np.uint8)
    lengths = np.array([len(i) for i in ids], dtype=np.int64)
    starts = np.cumsum(lengths + 1) - lengths - 1
    raw = fields.raw_words(buffer)
    ordered = fields.words(raw, starts, lengths, count=3)
    assert len(ordered) == max(3, -(-length // 8))
    rows = np.lexsort(ordered[::-1]).tolist()
    assert [ids[i] for i in rows] == sorted(ids)
    loose = fields.words(raw, starts, lengths, order=False)
    assert len(loose) == -(-length // 8)
    assert fields.texts(loose, np.arange(len(ids))) == ids


def test_kept_columns_take_the_narrowest_dtype_that_holds_them() -> None:
    """A kept column's dtype holds every value a chunk gives it: grades of seven digits and
    integers above 2^31 and 2^32 too (narrowed, not cut); scores stay doubles."""
    for numbers in ([0, (1 << 31) - 1], [5, 1 << 31], [0, (1 << 32) + 5], [1, 300], [1, 12],
                    [-1, 2], [-9999999, 255], [0, 0]):  # fmt: skip
        array = np.array(numbers, dtype=np.int64)
        kind = look._narrow(array)
        assert np.array_equal(array.astype(kind), array), numbers
        assert kind.itemsize <= 4 or max(numbers) >= 1 << 32, numbers
    for numbers, size in [([1, 12], 1), ([-1, 2], 1), ([-300], 2), ([-1, 300], 2)]:
        assert look._narrow(np.array(numbers)).itemsize == size, numbers
    assert look._narrow(np.array([0.5, 1e300])) == np.float64


def test_kept_columns_widen_for_a_later_chunk(tmp_path: Path) -> None:
    """Short ids and one-digit grades first, then ids of 300 bytes and grades of three digits
    and below -128: the kept columns widen chunk after chunk, the answers as the C pass's."""
    long_id = "d" * 300
    qrels = [f"{t} 0 d{d} {d % 3}\n" for t in range(1, 5) for d in range(40)]
    qrels += [f"5 0 {long_id}{i} {g}\n" for i, g in enumerate([200, -300, 7, 0])]
    run = [f"{t} Q0 d{d} {d} {1 / (d + 1):.4f} r\n" for t in range(1, 6) for d in range(40)]
    run += [f"5 Q0 {long_id}{i} {i} 0.5 r\n" for i in range(4)]
    paths = write(tmp_path, qrels, run, "grouped", 0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(look, "CHUNK", 400)
        index = look.look(paths[0], look.QRELS_FIELDS, 1 << 20)
    assert index is not None and index.kept is not None
    kept = index.kept
    assert len(kept.docs) == -(-(len(long_id) + 1) // 8) and kept.values.dtype.itemsize == 2
    assert kept.values[-4:].tolist() == [200, -300, 7, 0]
    lines = Lines(np.zeros(len(qrels), dtype=np.int64), kept.docs, kept.values)
    assert [lines.doc(i) for i in (0, len(qrels) - 1)] == [b"d0", f"{long_id}3".encode()]
    assert not any(column[:160].any() for column in kept.docs[1:])  # (short ids: zeros)
    rows = row_tuples(parse_trec(["official"], 10))
    for size in [(400, 1, 1 << 20), (400, 2048, 1 << 20)]:
        assert_same(*both(paths, rows, PlainOptions(), size))


@examples(60)
@given(collections(duplicates=True), OPTIONS, LAYOUTS, st.integers(0, 99))
def test_hash_collisions_fall_back_to_the_ids(tmp_path: Path, files: Any,
                                              options: tuple[Any, ...], layout: str,
                                              seed: int) -> None:  # fmt: skip
    """Every pair hashed alike (each one colliding with every other): the pairs are found on
    the ids themselves, with the same answers."""
    qrels, run = files
    if not qrels or not run:
        return
    level, version, max_docs, judged_only, complete, _ = options
    paths = write(tmp_path, qrels_lines(qrels), run_lines(run), layout, seed)
    chosen = PlainOptions(level, version, 0, max_docs, judged_only, complete)
    rows = row_tuples(parse_trec(["official"], version))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(block, "_hashed", lambda codes, words: np.zeros(len(codes), np.uint64))
        assert_same(*both(paths, rows, chosen, (1 << 20, 2048, 1 << 20)))


@pytest.mark.parametrize("options", [[], ["-q", "-c", "-m", "all_trec"], ["-M", "5", "-J"]])
def test_focal_trec_eval_without_the_c_part_imports_no_pyarrow_or_click(
    tmp_path: Path, options: list[str]
) -> None:
    """A fresh `focal trec_eval` with FOCAL_KERNEL=numpy on plain files (grouped, topics not in
    byte order, a topic the qrels lack): the numpy pass answers, with numpy alone loaded, and
    prints what the C part prints."""
    rng = random.Random(11)
    qrels = "".join(
        f"{t} 0 d{d} {rng.choice([-1, 0, 1, 2])}\n" for t in (1, 2, 10) for d in range(9)
    )
    run = "".join(
        f"{t} Q0 d{d} {d} {rng.random():.2f} r\n" for t in (10, 2, 1, 4) for d in range(12)
    )
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    argv = [*options, str(tmp_path / "q"), str(tmp_path / "r")]
    numpy_path = fresh_trec_eval(argv, "numpy")
    assert numpy_path.returncode == 0, numpy_path.stderr
    assert numpy_path.stderr.splitlines()[-1] == "LOADED numpy"
    assert "\nmap " in "\n" + numpy_path.stdout
    kernel()
    compiled = fresh_trec_eval(argv, "c")
    assert (compiled.returncode, compiled.stdout) == (0, numpy_path.stdout)


def test_grades_of_up_to_nine_bytes() -> None:
    """Every grade of one or two bytes from digits, signs and their ASCII neighbours (and a
    byte above 0x7F), then random ones of up to nine bytes, one a call and all in one call:
    read as -?D{1,7} reads, the others refused."""
    alphabet = [b"0", b"5", b"9", b"-", b"+", b"/", b":", b"a", b"\xb5"]
    texts = [a + b for a in alphabet for b in [b"", *alphabet]]
    rng = random.Random(7)
    texts += [b"".join(rng.choices(alphabet[:5], k=rng.randint(3, 9))) for _ in range(3000)]
    texts += [b"-" + b"%d" % rng.randint(0, 300) for _ in range(300)]
    for text in texts:
        wanted = int(text) if re.fullmatch(rb"-?\d{1,7}", text) else None
        wanted = None if wanted is None or wanted > values.GRADE_LIMIT else wanted
        got = _grades([text])
        assert (None if got is None else int(got[0])) == wanted, text
    valid = [t for t in texts if re.fullmatch(rb"-?\d{1,7}", t) and int(t) <= values.GRADE_LIMIT]
    for group in (valid, [t for t in valid if len(t) > 2], [t for t in valid if len(t) <= 2]):
        got = _grades(group)
        assert got is not None and got.tolist() == [int(t) for t in group]
        assert _grades([*group, b"1:"]) is None


def _grades(texts: list[bytes]) -> Any:
    return _read(texts, grades=True)


def test_a_file_changed_after_the_first_look_stops_the_pass(tmp_path: Path) -> None:
    paths = write(tmp_path, ["1 0 a 1\n", "2 0 b 1\n"], ["1 Q0 a 1 1 r\n", "2 Q0 b 1 1 r\n"],
                  "grouped", 0)  # fmt: skip
    opened = open_numpy_pass(*paths, row_tuples(parse_trec(["map"], 10)), PlainOptions())
    assert opened is not None
    Path(paths[1]).write_text("1 Q0 a 1 1 r\n")
    with pytest.raises(PlainStop) as stop:
        list(opened)
    assert stop.value.reason == "changed"


@pytest.mark.parametrize("layout", ["grouped", "shuffled"])
def test_long_ids_and_a_topic_split_across_chunks(tmp_path: Path, layout: str) -> None:
    """Topic ids of several words (sharing their first eight bytes), ids of one byte, a topic's
    group cut by a chunk's end: the same answers as the C pass."""
    topics = ["topic-number-0001", "topic-number-0002", "topic-number-00010", "t", "u"]
    rng = random.Random(3)
    qrels = [f"{t} 0 {d} {rng.choice([0, 1, 2, -1])}\n" for t in topics for d in "abcdefgh"]
    run = [f"{t} Q0 {d} 1 {rng.choice(['1', '2.5', '0.25'])} r{i}\n"
           for i, t in enumerate(topics[::-1]) for d in "hgfedcbaz"]  # fmt: skip
    paths = write(tmp_path, qrels, run, layout, 1)
    rows = row_tuples(parse_trec(["all_trec"], 10))
    for size in [(16, 1, 0), (40, 2, 0), (1 << 20, 2048, 0), (16, 1, 1 << 20), (40, 2, 1 << 20)]:
        assert_same(*both(paths, rows, PlainOptions(complete=True), size))


@pytest.mark.parametrize("seed", range(4))
def test_bytes_changed_at_random(tmp_path: Path, seed: int) -> None:
    """Plain files with bytes replaced, inserted and deleted (spaces, newlines, tabs, `#`, DEL,
    bytes above 0x7F, digits, signs, letters): every file the C pass declines declined, every
    file both take answered alike."""
    rng = random.Random(seed)
    qrels = "".join(f"{t} 0 d{d} {rng.choice([0, 1, 2])}\n" for t in (1, 2, 3) for d in range(6))
    run = "".join(f"{t} Q0 d{d} {d} {rng.random():.3f} r\n" for t in (3, 1, 2) for d in range(7))
    rows = row_tuples(parse_trec(["official"], 10))
    interesting = b" \n\t#\x7f\x80\xff\r\x00a0-.e+"
    for _ in range(60):
        texts = [bytearray(qrels.encode()), bytearray(run.encode())]
        for _ in range(rng.randint(1, 3)):
            text = rng.choice(texts)
            at, byte = rng.randrange(len(text)), rng.choice(interesting)
            change = rng.random()
            if change < 0.6:
                text[at] = byte
            elif change < 0.8:
                text.insert(at, byte)
            else:
                del text[at]
        paths = str(tmp_path / "q"), str(tmp_path / "r")
        Path(paths[0]).write_bytes(bytes(texts[0]))
        Path(paths[1]).write_bytes(bytes(texts[1]))
        budget = rng.choice([0, 1 << 20])  # (read again, or kept)
        c_answer, numpy_answer = both(paths, rows, PlainOptions(), (16, 2, budget))
        if c_answer is None:
            assert numpy_answer is None, texts
        elif numpy_answer is not None:
            assert_same(c_answer, numpy_answer)
