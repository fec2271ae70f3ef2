"""The C part refuses what would make it read or write outside its arrays, or loop for ever,
with a ValueError: tables that are not empty before they are filled, tables too small, arrays
written that share memory with arrays read, bases that do not rise (docs/trec_eval.md, "The C
part"). The calls that crashed or hung before these checks run in a child process, so that a
regression fails the test instead of the test run."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from .kernel_build import kernel_or_skip, tables

KERNEL = kernel_or_skip()

HERE = Path(__file__).resolve().parent
# a child's generous limit: the call takes milliseconds; a loop that never ends meets this
CHILD_SECONDS = 120


def in_child(code: str) -> str:
    """Run `code` in a fresh interpreter with `kernel` (this folder's C part) and numpy as np
    imported; its standard output. A crash or a time-out fails the test, naming it."""
    prelude = f"import sys; sys.path.insert(0, {str(HERE)!r})\nimport numpy as np\n"
    prelude += "from kernel_build import kernel\nkernel = kernel()\n"
    try:
        done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)],
                              capture_output=True, text=True, timeout=CHILD_SECONDS)  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"the call did not end within {CHILD_SECONDS} s (a loop that never ends)")
    assert done.returncode == 0, f"the child failed ({done.returncode}): {done.stderr[-2000:]}"
    return done.stdout


def test_slots_not_zeroed_are_refused_not_read() -> None:
    """Slots not zeroed: every bit set, or the tables' own entries (tags that match) naming
    rows beyond the column. The second were read outside the offsets, the first probed
    without end."""
    out = in_child("""
        codes = np.array([0, 0, 0, 1, 1], np.int32)
        offsets = np.arange(6, dtype=np.int32)
        bases = np.array([0, 8, 12], np.int64)
        filled = np.zeros(12, np.uint32)
        kernel.index_pairs(codes, offsets, b"abcde", bases, filled)
        beyond = np.where(filled != 0, filled | 7, 0).astype(np.uint32)  # row bits 7: row 6
        for slots in (np.full(12, 0xFFFFFFFF, np.uint32), beyond):
            try:
                kernel.index_pairs(codes, offsets, b"abcde", bases, slots)
            except ValueError as error:
                print(error)
            else:
                print("taken")
    """)
    assert out.splitlines() == ["slots must be all 0 before the tables are filled"] * 2


def test_a_full_table_ends_the_call() -> None:
    """A table whose every slot is taken: the probe used to go round it for ever, the
    interpreter lock released."""
    out = in_child("""
        slots = np.full(4, 0x1234, np.uint32)  # every slot of the one table taken
        try:
            kernel.index_pairs(np.zeros(3, np.int32), np.array([0, 1, 2, 3], np.int32), b"xyz",
                               np.array([0, 4], np.int64), slots)
        except ValueError as error:
            print(error)
    """)
    assert out.strip() == "slots must be all 0 before the tables are filled"


def test_filling_twice_is_refused() -> None:
    """The same tables filled again without clearing them (a caller's easy mistake)."""
    arrays = tables([(0, b"a"), (0, b"bb"), (1, b"a")], 2)
    assert KERNEL.index_pairs(**arrays) is False
    filled = arrays["slots"].copy()
    with pytest.raises(ValueError, match="all 0"):
        KERNEL.index_pairs(**arrays)
    assert arrays["slots"].tolist() == filled.tolist()  # refused before anything is written


def test_tables_too_small_for_their_rows() -> None:
    arrays = tables([(0, b"a"), (0, b"b")], 1)
    arrays["bases"] = np.array([0, 2], np.int64)  # two rows need at least three slots
    arrays["slots"] = np.zeros(2, np.uint32)
    with pytest.raises(ValueError, match="table too small"):
        KERNEL.index_pairs(**arrays)


def test_written_arrays_may_not_share_memory_with_those_read() -> None:
    """Slots over the codes, `found` over the run's codes or over the slots: each write would
    change what was checked (a code made negative, a row beyond the column)."""
    shared = np.zeros(8, np.uint32)
    with pytest.raises(ValueError, match="slots may not share memory"):
        KERNEL.index_pairs(shared[:2].view(np.int32), np.array([0, 1, 2], np.int32), b"ab",
                           np.array([0, 8], np.int64), shared)  # fmt: skip
    arrays = tables([(0, b"a"), (1, b"bb")], 2)
    KERNEL.index_pairs(**arrays)
    run = [(np.array([0, 1, 3], np.int32), b"abb")]
    judged = arrays["bases"], arrays["slots"], arrays["offsets"], arrays["bytes"]
    spans = np.array([[0, 1], [1, 2]], np.int64)
    found = np.zeros(2, np.int64)
    over_codes = found.view(np.int32)[:2]  # the run's two codes in found's first 8 bytes
    over_codes[:] = [0, 1]
    over_slots = arrays["slots"].view(np.int64)[:2]  # 4 slots of 4 bytes: 2 results of 8
    for codes, written in ((over_codes, found), (np.array([0, 1], np.int32), over_slots)):
        with pytest.raises(ValueError, match="found may not share memory"):
            KERNEL.find_pairs(run, codes, *judged, spans, written)
    apart = np.empty(2, np.int64)
    assert not KERNEL.find_pairs(run, np.array([0, 1], np.int32), *judged, spans, apart)
    assert apart.tolist() == [0, 1]  # both pairs judged: rows 0 and 1


def test_items_of_no_bytes_are_refused() -> None:
    """A buffer of zero-byte items (numpy's `V0`) as offsets: its row count used to be a
    division by zero."""
    out = in_child("""
        try:
            kernel.index_pairs(np.zeros(1, np.int32), np.zeros(2, dtype="V0"), b"a",
                               np.array([0, 2], np.int64), np.zeros(2, np.uint32))
        except ValueError as error:
            print(error)
    """)
    assert out.strip() == "offsets: items of at least one byte expected"


def test_bases_must_rise_by_powers_of_two() -> None:
    """Bases that fall back (2 to -2^63: a difference that overflowed, which the sanitizers
    stop at) or cut slots other than in powers of two are refused before any slot is
    touched."""
    slots = np.zeros(4, np.uint32)
    cases = [0, 2, -(2**63), 4], [0, 2**62, 4], [0, -(2**63), 4], [0, 3, 4], [1, 4], [0, 4, 4]
    for bases in cases:
        with pytest.raises(ValueError, match="powers of two"):
            KERNEL.index_pairs(np.zeros(1, np.int32), np.array([0, 1], np.int32), b"a",
                               np.array(bases, np.int64), slots)  # fmt: skip


def test_columns_of_any_sequence_and_odd_buffers() -> None:
    """The run's columns as a list, a tuple or a generator (anything else: TypeError);
    offsets that are not 4 or 8 bytes are refused by name."""
    arrays = tables([(0, b"a")], 1)
    KERNEL.index_pairs(**arrays)
    spans = np.array([[0, 1]], np.int64)
    column = (np.array([0, 1], np.int32), b"a")
    for columns in ([column], (column,), (c for c in [column])):
        found = np.empty(1, np.int64)
        KERNEL.find_pairs(columns, np.zeros(1, np.int32), arrays["bases"], arrays["slots"],
                          arrays["offsets"], arrays["bytes"], spans, found)  # fmt: skip
        assert found.tolist() == [0]
    with pytest.raises(TypeError):
        KERNEL.find_pairs(3, np.zeros(1, np.int32), arrays["bases"], arrays["slots"],
                          arrays["offsets"], arrays["bytes"], spans,
                          np.empty(1, np.int64))  # fmt: skip
    with pytest.raises(ValueError, match="offsets"):  # 16-bit offsets
        KERNEL.index_pairs(np.zeros(1, np.int32), np.array([0, 1], np.int16), b"a",
                           arrays["bases"], np.zeros(2, np.uint32))  # fmt: skip


def test_readers_take_any_buffer_and_decline_odd_ones() -> None:
    """parse_qrels and parse_run on bytes, bytearrays and memoryviews alike; a run block for
    tables other than one table of topic ids is declined (None)."""
    text = b"1 0 a 1\n2 0 b 0\n"
    answers = [KERNEL.parse_qrels(kind(text)) for kind in (bytes, bytearray, memoryview)]
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0] == 2 and answers[0][2] == [b"1", b"2"]
    topics = tables([(0, b"1"), (0, b"2")], 1)
    KERNEL.index_pairs(**topics)
    run = b"2 Q0 d 1 0.5 r\n"
    read = KERNEL.parse_run(bytearray(run), True, topics["bases"], topics["slots"],
                            topics["offsets"], topics["bytes"])  # fmt: skip
    assert read is not None and read[:2] == (len(run), 1)
    assert np.frombuffer(read[2], np.int32).tolist() == [1]
    two = tables([(0, b"1"), (1, b"2")], 2)
    KERNEL.index_pairs(**two)
    assert KERNEL.parse_run(run, True, two["bases"], two["slots"], two["offsets"],
                            two["bytes"]) is None  # fmt: skip
