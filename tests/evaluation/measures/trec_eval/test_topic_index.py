"""The whole-file pass's topic index sorted outside memory (`engine/topic_index.py`,
kernel/_kernel_merge.c): its C entry points against Python's own sort and a model of the join,
buffers cut anywhere; and `focal trec_eval` with the index spilled (`SPILL` lowered, so that a
few hundred topics make many sorted runs) printing, byte for byte, what it prints with the index
in memory, whatever the files' order, options and stops; its temporary files gone after a pass,
a stop and an error; a temporary file that cannot be written a clear error (exit 2)."""

from __future__ import annotations

import io
import os
import random
import sys
import tempfile
from array import array
from pathlib import Path
from typing import IO, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.evaluation.cli.trec_eval.command import main
from focal.evaluation.measures.trec_eval.engine import plain_pass, topic_index
from focal.evaluation.measures.trec_eval.engine.topic_index import HEAD, Runs, merge

from .kernel_build import kernel_or_skip

KERNEL = kernel_or_skip()
IDS = st.sampled_from([b"1", b"10", b"100", b"2", b"1a", b"a", b"B", b"\xff", b"07", b"x" * 40])


def batch(ids: list[bytes], starts: list[int]) -> tuple[bytes, array[int], array[int]]:
    """A batch as the first look holds it: ids concatenated, their ends, the groups' starts."""
    ends, at = array("i"), 0
    for id_ in ids:
        at += len(id_)
        ends.append(at)
    return b"".join(ids), ends, array("q", starts)


def records(data: bytes) -> list[tuple[bytes, int, int]]:
    """A sorted run's records: (id, start, end)."""
    out, at = [], 0
    while at < len(data):
        start, end = (int.from_bytes(data[at + i : at + i + 8], sys.byteorder, signed=True)
                      for i in (0, 8))  # fmt: skip
        size = int.from_bytes(data[at + 16 : at + HEAD], sys.byteorder, signed=True)
        out.append((data[at + HEAD : at + HEAD + size], start, end))
        at += HEAD + size
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(IDS, max_size=40), st.integers(0, 1000))
def test_sort_groups_sorts_by_bytes_keeping_file_order(ids: list[bytes], first: int) -> None:
    starts = [first + 10 * i for i in range(len(ids))]
    end = first + 10 * len(ids) + 3
    got = records(KERNEL.sort_groups(*batch(ids, starts), end))
    groups = [(id_, start, starts[i + 1] if i + 1 < len(ids) else end)
              for i, (id_, start) in enumerate(zip(ids, starts, strict=True))]  # fmt: skip
    assert got == sorted(groups, key=lambda group: group[0])  # (a stable sort: file order)


def test_sort_groups_refuses_arrays_that_do_not_agree() -> None:
    ids, ends, starts = batch([b"a", b"b"], [0, 5])
    with pytest.raises(ValueError, match="one per group"):
        KERNEL.sort_groups(ids, ends, starts[:1], 9)
    with pytest.raises(ValueError, match="rise within"):
        KERNEL.sort_groups(ids, array("i", [2, 1]), starts, 9)
    with pytest.raises(ValueError, match="rise within"):
        KERNEL.sort_groups(ids, array("i", [1, 3]), starts, 9)


def sorted_runs(groups: list[bytes], cuts: int, kernel: Any) -> list[bytes]:
    """A file's groups (ids in file order, start = 10 × position) cut into `cuts` batches,
    each a sorted run."""
    size = max(1, -(-len(groups) // max(1, cuts)))
    runs = []
    for at in range(0, len(groups), size):
        part = groups[at : at + size]
        starts = [10 * (at + i) for i in range(len(part))]
        runs.append(kernel.sort_groups(*batch(part, starts), 10 * (at + len(part))))
    return runs


class _Memory(io.BytesIO):
    """A temporary file in memory (its closing observed)."""


def model(qrels: list[bytes], run: list[bytes]) -> tuple[list[tuple[int, ...]], list[bytes], bool]:
    """What the merge and join answer: per qrels group in byte order its range and its run
    group's; the run topics the qrels lack; whether an id comes twice in a file."""

    def merged(ids: list[bytes]) -> list[tuple[bytes, int]]:
        return sorted(((id_, 10 * i) for i, id_ in enumerate(ids)), key=lambda g: g[0])

    repeated = len(set(qrels)) < len(qrels) or len(set(run)) < len(run)
    found = {id_: (start, start + 10) for id_, start in merged(run)}
    joined = [(start, start + 10, *found.get(id_, (-1, -1))) for id_, start in merged(qrels)]
    return joined, sorted(set(run) - set(qrels)), repeated


@settings(max_examples=300, deadline=None)
@given(st.lists(IDS, min_size=1, max_size=30), st.lists(IDS, min_size=1, max_size=30),
       st.integers(1, 6), st.integers(1, 6), st.integers(1, 64))  # fmt: skip
def test_merge_and_join_as_the_model(qrels: list[bytes], run: list[bytes], q_cuts: int,
                                     r_cuts: int, buffer: int) -> None:  # fmt: skip
    runs = Runs(KERNEL)
    runs.file = _Memory()
    for which, (groups, cuts) in enumerate(((qrels, q_cuts), (run, r_cuts))):
        for data in sorted_runs(groups, cuts, KERNEL):
            runs.runs[which].append((runs.file.tell(), len(data)))
            runs.file.write(data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(topic_index, "RUN_BUFFER", buffer)  # (records cut anywhere)
        patch.setattr(topic_index, "_temporary", _Memory)
        joined = merge(runs)
    expected, unknown, repeated = model(qrels, run)
    assert runs.file is None  # (closed)
    assert (joined.unknown, joined.grouped) == (unknown, not repeated)
    assert list(joined.ranges()) == ([] if repeated else expected)
    assert joined.file is None  # (closed once read)


def test_merge_join_refuses_a_run_cut_short_and_wrong_arguments() -> None:
    data = KERNEL.sort_groups(*batch([b"a", b"b"], [0, 4]), 8)
    with pytest.raises(ValueError, match="part of a record"):
        KERNEL.merge_join([(data[:-1], True)], [], None, None)
    with pytest.raises(TypeError):
        KERNEL.merge_join([data], [], None, None)
    with pytest.raises(TypeError):
        KERNEL.merge_join([(data, True)], [], "a", None)
    answer = KERNEL.merge_join([(data[:HEAD], False)], [], None, None)  # (waits for the rest)
    assert answer == (b"", [], [0], [], False, None, None)
    heads = [(data[:-1], False)]  # (the first whole record: taken; the next: waited for)
    answer = KERNEL.merge_join(heads, [(b"", True)], None, None)
    assert answer == (array("q", [0, 4, -1, -1]).tobytes(), [], [HEAD + 1], [0], False, b"a",
                      None)  # fmt: skip


# --- focal trec_eval with the index spilled, against the index in memory -------------------

DOCS = [f"d{i}" for i in range(6)]


def topics(rng: random.Random, count: int) -> tuple[list[str], list[str]]:
    """qrels and run topic ids: numbers (file order is not byte order), some only in one."""
    ids = [str(i) for i in range(1, count + 1)]
    qrels = [t for t in ids if rng.random() < 0.9]
    run = [t for t in ids if rng.random() < 0.9] + [f"r{i}" for i in range(5)]
    return qrels, run


def lines(rng: random.Random, qrels: list[str], run: list[str]) -> tuple[list[str], list[str]]:
    judged = [f"{t} 0 {d} {rng.choice([-1, 0, 1, 2])}\n" for t in qrels
              for d in rng.sample(DOCS, rng.randint(1, 4))]  # fmt: skip
    ranked = [f"{t} Q0 {d} {i} {rng.choice(['1', '0.5', '2', '0.25'])} tag\n" for t in run
              for i, d in enumerate(rng.sample(DOCS, rng.randint(1, 5)))]  # fmt: skip
    return judged, ranked


def laid_out(rng: random.Random, rows: list[str], layout: str) -> str:
    """Lines grouped by topic in file order, byte order, reverse byte order, a random order of
    topics, or shuffled (not grouped)."""
    groups: dict[str, list[str]] = {}
    for row in rows:
        groups.setdefault(row.split()[0], []).append(row)
    order = list(groups)
    if layout == "bytes":
        order.sort(key=str.encode)
    elif layout == "reverse":
        order.sort(key=str.encode, reverse=True)
    elif layout == "random":
        rng.shuffle(order)
    out = [row for topic in order for row in groups[topic]]
    if layout == "shuffled":
        rng.shuffle(out)
    return "".join(out)


def call(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def both(argv: list[str], patch: pytest.MonkeyPatch) -> tuple[tuple[int, str, str], int]:
    """The call with the index in memory, and the same call spilled (16 groups a run): their
    answer, checked equal; how many sorted runs the spilled call wrote."""
    written: list[int] = []
    original = Runs.write

    def counting(self: Runs, which: int, *args: Any) -> None:
        written.append(which)
        original(self, which, *args)

    patch.setattr(Runs, "write", counting)
    patch.setattr(plain_pass, "CHUNK", 256)  # (the batches: cut at a chunk's end)
    limit = topic_index.SPILL
    in_memory = call(argv)
    assert written == []  # (no run: the index stayed in memory)
    patch.setattr(topic_index, "SPILL", 16)
    spilled = call(argv)
    patch.setattr(topic_index, "SPILL", limit)
    assert spilled == in_memory, (argv, in_memory[2], spilled[2])
    return in_memory, len(written)


OPTION_SETS = [[], ["-q"], ["-c"], ["-M", "3"], ["-J"], ["-q", "-c", "-m", "all_trec"],
               ["-q", "--trec-version", "9", "-c"]]  # fmt: skip


@pytest.mark.parametrize("layout", ["bytes", "reverse", "random", "file", "shuffled"])
def test_spilled_index_prints_what_the_index_in_memory_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, layout: str
) -> None:
    rng = random.Random(layout)
    judged, ranked = lines(rng, *topics(rng, 300))
    (tmp_path / "q").write_text(laid_out(rng, judged, layout))
    (tmp_path / "r").write_text(laid_out(rng, ranked, layout))
    for options in OPTION_SETS:
        argv = [*options, str(tmp_path / "q"), str(tmp_path / "r")]
        (code, _, _), runs = both(argv, monkeypatch)
        assert runs > 20  # (both files, several runs each)
        assert code == 0 if "-c" in options else code in (0, 4)  # (10.0: a topic not in the run)


@pytest.mark.parametrize("spilled", ["qrels", "run"])
def test_one_file_spilled_the_other_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spilled: str
) -> None:
    rng = random.Random(spilled)
    many, few = topics(rng, 300)[0], [str(i) for i in range(1, 300, 37)]
    judged, ranked = lines(rng, *((many, few) if spilled == "qrels" else (few, many)))
    (tmp_path / "q").write_text(laid_out(rng, judged, "random"))
    (tmp_path / "r").write_text(laid_out(rng, ranked, "random"))
    for options in (["-q", "-c"], ["-q", "--trec-version", "9"]):
        (code, out, _), runs = both([*options, str(tmp_path / "q"), str(tmp_path / "r")],
                                    monkeypatch)  # fmt: skip
        assert code == 0 and runs > 10 and out.count("\tall\t") > 10


@pytest.mark.parametrize("twice", ["qrels", "run"])
def test_a_duplicate_after_a_spill_boundary_stops_as_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, twice: str
) -> None:
    rng = random.Random(twice)
    ids = [str(i) for i in range(1, 201)]
    judged, ranked = lines(rng, ids, ids)
    late = "150"  # (file order: past several runs' groups; byte order: after "10")
    rows = judged if twice == "qrels" else ranked
    at = next(i for i, row in enumerate(rows) if row.split()[0] == late)
    rows.insert(at, rows[at])
    (tmp_path / "q").write_text("".join(judged))
    (tmp_path / "r").write_text("".join(ranked))
    (code, out, err), runs = both(["-q", str(tmp_path / "q"), str(tmp_path / "r")], monkeypatch)
    assert runs > 20 and code == 4 and f"\t{late}\t" not in out and late in err
    assert "\t10\t" in out  # (the topics before it, in byte order, were printed)


def open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


class _Full(io.BytesIO):
    """A temporary file on a full disk."""

    def write(self, data: Any) -> int:  # type: ignore[override]
        raise OSError(28, "No space left on device")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="no /proc/self/fd to count files")
@pytest.mark.parametrize("ending", ["pass", "stop", "error"])
def test_temporary_files_are_gone_after_a_pass_a_stop_and_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ending: str
) -> None:
    folder = tmp_path / "temporary"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setattr(topic_index, "SPILL", 16)
    rng = random.Random(ending)
    judged, ranked = lines(rng, *topics(rng, 200))
    if ending == "stop":
        ranked.insert(len(ranked) // 2, ranked[len(ranked) // 2])
    (tmp_path / "q").write_text("".join(judged))
    (tmp_path / "r").write_text("".join(ranked))
    opened: list[IO[bytes]] = []
    made = _Full if ending == "error" else topic_index._temporary

    def observed() -> IO[bytes]:
        opened.append(made())
        return opened[-1]

    monkeypatch.setattr(topic_index, "_temporary", observed)
    before = open_descriptors()
    code, out, err = call(["-c", str(tmp_path / "q"), str(tmp_path / "r")])
    assert code == {"pass": 0, "stop": 4, "error": 2}[ending], err
    if ending == "error":
        assert out == "" and err == ("trec_eval: cannot write the topic index to a temporary "
                                     "file: No space left on device\n")  # fmt: skip
    assert opened and all(file.closed for file in opened)
    assert open_descriptors() == before and list(folder.iterdir()) == []


def test_no_temporary_folder_is_a_clear_error(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    rng = random.Random(7)
    judged, ranked = lines(rng, *topics(rng, 60))
    (tmp_path / "q").write_text("".join(judged))
    (tmp_path / "r").write_text("".join(ranked))
    missing = str(tmp_path / "no such folder")
    monkeypatch.setattr(tempfile, "tempdir", missing)
    paths = ["-c", str(tmp_path / "q"), str(tmp_path / "r")]
    assert call(paths)[0] == 0  # (the index in memory needs no temporary file)
    monkeypatch.setattr(topic_index, "SPILL", 16)
    code, out, err = call(paths)
    assert (code, out) == (2, "")
    assert err.startswith("trec_eval: cannot write the topic index to a temporary file: ")
    assert missing in err and "Traceback" not in err and err.count("\n") == 1
