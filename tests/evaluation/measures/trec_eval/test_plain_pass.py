"""The whole-file pass in C (`engine/plain_pass.py`, kernel/_kernel_evaluate.c, _kernel_groups.c)
against the numpy engine: on random plain files (grouped by topic or not, topics in byte order or
not, cut into chunks and blocks of a few bytes), every topic's ranking and every row's value are
the numpy engine's to the bit, the run id and unknown topics the same; where trec_eval stops (a
duplicate) the same as `cli/trec_eval/control.py`; a file that is not plain is declined (its
memory and imports, in a child interpreter: test_plain_pass_process.py)."""

from __future__ import annotations

import math
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.formats.trec import read_trec_qrels, read_trec_run
from focal.evaluation.measures.registry.names import parse_trec
from focal.evaluation.measures.trec_eval.engine import plain_pass
from focal.evaluation.measures.trec_eval.engine.grades import GradeTable
from focal.evaluation.measures.trec_eval.engine.plain_pass import (
    PlainOptions,
    PlainStop,
    open_plain_pass,
    row_tuples,
)
from focal.evaluation.measures.trec_eval.engine.run import TrecOptions, _rank, evaluate_trec
from focal.evaluation.measures.trec_eval.engine.summary import reset_when_missing
from focal.evaluation.measures.trec_eval.names import NOT_IN_9

from .kernel_build import kernel

TOPICS = ["1", "2", "10", "3b", "07"]
DOCS = ["d0", "d1", "d2", "d10", "D5", "a-much-longer-document-id-0123456789", "x"]
# few values (many ties); some equal only as C floats (9.0.x); signed zeros; long mantissas
SCORES = ["1", "0.5", "2.25", "-0", "0", "3e2", "-1.5E-3", "1.00000001", "1.000000001",
          "0.30000000000000004", "0.3", "12345678901234567"]  # fmt: skip
SETS = [["official"], ["P.3,7", "recall.2", "success.1,2", "set_F.0.5", "utility.1,-1,0,0",
        "Rprec_mult.0.5", "map_cut.3", "num_nonrel_judged_ret", "bpref", "infAP", "gm_bpref",
        "11pt_avg", "relative_P.2", "set_P", "set_recall", "set_map",
        "set_relative_P", "relstring.3"], ["all_trec"], ["relstring", "ndcg.1=3,2=9",
        "rbp.p=0.5", "ndcg_cut.2"]]  # fmt: skip

Files = tuple[dict[str, dict[str, int]], dict[str, list[tuple[str, str]]]]


def examples(count: int) -> settings:
    """Hypothesis's settings here: each example writes its files anew (in `tmp_path`)."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip


@st.composite
def collections(draw: st.DrawFn, duplicates: bool = False) -> Files:
    """qrels topic -> {doc: grade}; run topic -> [(doc, score)] (a topic the qrels lack: "9x");
    with `duplicates`, documents may come twice in a topic of either file."""
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, list[tuple[str, str]]] = {}
    docs, grades = st.sampled_from(DOCS), st.integers(-2, 3)
    for topic in TOPICS:
        if draw(st.booleans()):
            qrels[topic] = draw(st.dictionaries(docs, grades, min_size=1, max_size=7))
    for topic in [*TOPICS, "9x"]:
        if draw(st.booleans()):
            chosen = draw(st.lists(docs, min_size=1, max_size=9, unique=not duplicates))
            run[topic] = [(d, draw(st.sampled_from(SCORES))) for d in chosen]
    return qrels, run


def qrels_lines(qrels: dict[str, dict[str, int]]) -> list[str]:
    return [f"{t} 0 {d} {g}\n" for t, judged in qrels.items() for d, g in judged.items()]


def run_lines(run: dict[str, list[tuple[str, str]]]) -> list[str]:
    return [f"{t} Q0 {d} {i} {s} tag-{t}\n" for t, ds in run.items() for i, (d, s) in enumerate(ds)]


def write(folder: Path, qrels: list[str], run: list[str], layout: str, seed: int,
          last_newline: bool = True) -> tuple[str, str]:  # fmt: skip
    """The files: lines grouped by topic (`grouped`), grouped with topics in byte order
    (`sorted`), or shuffled (`shuffled`: topics split into several groups)."""
    shuffle = random.Random(seed)
    if layout == "sorted":
        qrels, run = sorted(qrels, key=lambda line: line.split()[0].encode()), \
            sorted(run, key=lambda line: line.split()[0].encode())  # fmt: skip
    elif layout == "shuffled":
        shuffle.shuffle(qrels)
        shuffle.shuffle(run)
    paths = folder / "qrels", folder / "run"
    paths[0].write_text("".join(qrels))
    text = "".join(run)
    paths[1].write_text(text if last_newline else text.rstrip("\n"))
    return str(paths[0]), str(paths[1])


def same_bits(a: float | str, b: float | str) -> bool:
    """Equal to the bit but for NaN payloads: NaN and the signs of NaN and zero print
    (relstring's rows: equal strings)."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    sign = math.copysign(1.0, a) == math.copysign(1.0, b)
    return sign and (a == b or (math.isnan(a) and math.isnan(b)))


OPTIONS = st.tuples(st.integers(0, 3), st.sampled_from([9, 10]), st.sampled_from([None, 0, 1, 3]),
                    st.booleans(), st.booleans(), st.sampled_from([0, 1000]))  # fmt: skip
LAYOUTS = st.sampled_from(["grouped", "sorted", "shuffled"])
SIZES = st.sampled_from([7, 64, 1 << 20])  # bytes a chunk and a block hold


@examples(150)
@given(collections(), OPTIONS, LAYOUTS, st.integers(0, 99), st.booleans(), SIZES,
       st.sampled_from(SETS))  # fmt: skip
def test_each_topic_as_the_numpy_engine(tmp_path: Path, files: Files, options: tuple,
                                        layout: str, seed: int, last_newline: bool, size: int,
                                        spec: list[str]) -> None:  # fmt: skip
    qrels, run = files
    if not qrels or not run:
        return
    level, version, max_docs, judged_only, complete, num_docs = options
    paths = write(tmp_path, qrels_lines(qrels), run_lines(run), layout, seed, last_newline)
    if version == 9:  # (9.0.7 lacks rbp and a few others)
        spec = [name for name in spec if name.split(".")[0] not in NOT_IN_9]
    selection = parse_trec(spec, version)
    chosen = PlainOptions(level, version, num_docs, max_docs, judged_only, complete)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(plain_pass, "CHUNK", size)
        patch.setattr(plain_pass, "BLOCK", size)
        opened = open_plain_pass(*paths, row_tuples(selection), chosen)
        assert opened is not None
        topics = list(opened)
    index = GradeTable.from_trec_file(paths[0])
    numpy_options = TrecOptions(level, max_docs, complete, version, judged_only, num_docs)
    expected = evaluate_trec(index, read_trec_run(paths[1], False), selection, numpy_options)
    assert (opened.run_id, opened.unknown) == (expected.run_id, expected.unknown_topics)
    assert [t.topic for t in topics] == index.topics  # every qrels topic, in byte order
    names = [row.name for row in selection.rows() if row.name in expected.values]
    reset = reset_when_missing(selection)
    at = {topic: i for i, topic in enumerate(expected.topics)}
    for topic in topics:
        judged = index.judged[topic.topic]
        assert (topic.positive, topic.judged) == (int((judged > 0).sum()), int((judged >= 0).sum()))
        assert topic.answered == (topic.topic in run)
        if topic.topic not in at or (version == 9 and not topic.answered):
            assert topic.values is None
            continue
        assert topic.values is not None and len(topic.values) == len(names)
        i = at[topic.topic]
        for name, value in zip(names, topic.values, strict=True):
            if topic.answered or name not in reset:  # (10.0's -c resets those: the command's)
                wanted = expected.values[name][i]
                wanted = wanted if isinstance(wanted, str) else float(wanted)
                assert same_bits(value, wanted), (topic.topic, name)


@examples(150)
@given(collections(), OPTIONS, LAYOUTS, st.integers(0, 99))
def test_rankings_as_the_numpy_engine(tmp_path: Path, files: Files, options: tuple, layout: str,
                                      seed: int) -> None:  # fmt: skip
    """The grades each topic's measures read (ranked, cut, -J), and its judged counts, in the
    block's own terms (`ranking_only`): whatever the families compute."""
    qrels, run = files
    if not qrels or not run:
        return
    level, version, max_docs, judged_only, _, _ = options
    paths = write(tmp_path, qrels_lines(qrels), run_lines(run), layout, seed)
    block = kernel().evaluate_block(Path(paths[0]).read_bytes(), Path(paths[1]).read_bytes(), [],
                                    level, version, 0, -1 if max_docs is None else max_docs,
                                    judged_only, False, ranking_only=True)  # fmt: skip
    index = GradeTable.from_trec_file(paths[0])
    numpy_options = TrecOptions(level, max_docs, False, version, judged_only)
    ranked, codes, unknown = _rank(index, read_trec_run(paths[1], False), numpy_options,
                                   "descending", True)  # fmt: skip
    assert [t.decode() for t in block[1]] == unknown
    answered = [index.topics[c] for c in codes.tolist()]
    ends = [*ranked.starts.tolist()[1:], len(ranked.grades)]
    got = {t[0].decode(): t[2] for t in block[0] if t[1]}
    assert list(got) == answered
    for i, topic in enumerate(answered):
        grades, num_rel, num_nonrel, per_grade = got[topic]
        assert list(grades) == ranked.grades[ranked.starts[i] : ends[i]].tolist()
        assert (num_rel, num_nonrel) == (ranked.num_rel[i], ranked.num_nonrel[i])
        assert list(per_grade) == ranked.levels[i].tolist()


def first_stop(paths: tuple[str, str], version: int, complete: bool,
               max_docs: int | None) -> tuple[str, str, str] | None:  # fmt: skip
    """Where the pass ends: a qrels topic 10.0 finds unanswered without -c ("missing"), or a
    PlainStop (its topic, reason and document); None when every topic is evaluated."""
    opened = open_plain_pass(*paths, [], PlainOptions(1, version, 0, max_docs, False, complete))
    assert opened is not None
    try:
        for topic in opened:
            if version == 10 and not complete and not topic.answered:
                return topic.topic, "missing", ""
    except PlainStop as stop:
        return stop.topic, stop.reason, stop.document
    return None


@examples(200)
@given(collections(duplicates=True), st.sampled_from([9, 10]), st.booleans(),
       st.sampled_from([None, 1, 2, 4]), LAYOUTS, st.integers(0, 99), st.booleans())  # fmt: skip
def test_stops_where_trec_eval_stops(tmp_path: Path, files: Files, version: int, complete: bool,
                                     max_docs: int | None, layout: str, seed: int,
                                     qrels_twice: bool) -> None:  # fmt: skip
    """The topic, reason and document of `control.checked` (which the command's numpy path
    follows): qrels judging a document twice, a document twice among a topic's first -M."""
    from focal.evaluation.cli.trec_eval.control import checked

    qrels, run = files
    if not qrels or not run:
        return
    lines = qrels_lines(qrels)
    if qrels_twice:  # the topic's first line again, and maybe another
        lines = [*lines, lines[seed % len(lines)], lines[(seed // 3) % len(lines)]]
    paths = write(tmp_path, lines, run_lines(run), layout, seed)
    found = first_stop(paths, version, complete, max_docs)
    control = checked(read_trec_qrels(paths[0], check_duplicates=False),
                      read_trec_run(paths[1], False), version, complete, max_docs)  # fmt: skip
    if control.stop_topic is None:
        assert found is None
        return
    assert found is not None and found[0] == control.stop_topic
    if found[1] == "missing":
        assert "not found in qrels" in control.message
    else:
        assert f"document {found[2]!r} {'is ' if found[1] == 'judged twice' else ''}" \
            f"{found[1]} in topic" in control.message  # fmt: skip


PLAIN_QRELS = "1 0 a 1\n1 0 b 0\n2 0 c 2\n"
PLAIN_RUN = "1 Q0 a 1 2.5 r\n1 Q0 b 2 1 r\n2 Q0 c 1 3 r\n"
ROWS = [("map", None, (), ()), ("P", 10.0, (), ())]


@pytest.mark.parametrize(("qrels", "run"), [
    (PLAIN_QRELS, PLAIN_RUN.replace("2.5", "nan")),  # a NaN score: the numpy engine's order
    (PLAIN_QRELS, PLAIN_RUN.replace("2.5", "1e400")),  # a score only the interpreter reads
    (PLAIN_QRELS, PLAIN_RUN.replace(" r\n1", "\tr\n1")),  # a tab
    (PLAIN_QRELS, PLAIN_RUN + "\n"),  # a blank line
    (PLAIN_QRELS, PLAIN_RUN.replace("\n", "\r\n")),
    (PLAIN_QRELS, PLAIN_RUN.replace("r\n2", "r extra\n2")),  # seven fields
    (PLAIN_QRELS.replace("0 c 2", "0 c 2.0"), PLAIN_RUN),  # a grade that is not an integer
    (PLAIN_QRELS.replace("0 c 2", "0 c 2000000"), PLAIN_RUN),  # a grade above the limit
    (PLAIN_QRELS + "# a comment\n", PLAIN_RUN),
    ("", PLAIN_RUN),  # empty
    (PLAIN_QRELS, ""),
])  # fmt: skip
def test_files_not_plain_are_declined(tmp_path: Path, qrels: str, run: str) -> None:
    paths = write(tmp_path, [qrels], [run], "grouped", 0)
    assert open_plain_pass(*paths, ROWS, PlainOptions()) is None
    fixed = write(tmp_path, [PLAIN_QRELS], [PLAIN_RUN], "grouped", 0)  # (the same paths)
    assert open_plain_pass(*fixed, ROWS, PlainOptions()) is not None


def test_what_the_pass_cannot_do_is_declined(tmp_path: Path) -> None:
    """A folder, a missing file, relstring of no finite length, a family the C part does not
    compute (preferences), a level or -N beyond its integers, the numpy engine chosen: None,
    and the numpy engine decides."""
    qrels, run = write(tmp_path, [PLAIN_QRELS], [PLAIN_RUN], "grouped", 0)
    assert open_plain_pass(str(tmp_path), run, ROWS, PlainOptions()) is None
    assert open_plain_pass(qrels, str(tmp_path / "none"), ROWS, PlainOptions()) is None
    assert open_plain_pass(qrels, run, [("relstring", None, (math.nan,), ())],
                           PlainOptions()) is None  # fmt: skip
    assert open_plain_pass(qrels, run, [("prefs_simp", None, (), ())], PlainOptions()) is None
    assert open_plain_pass(qrels, run, ROWS, PlainOptions(level=2**40)) is None
    assert open_plain_pass(qrels, run, ROWS, PlainOptions(num_docs=2**64)) is None
    from focal.evaluation.measures.trec_eval import kernel as choice

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FOCAL_KERNEL", "numpy")
        patch.setattr(choice, "_loaded", {})
        assert open_plain_pass(qrels, run, ROWS, PlainOptions()) is None


@pytest.mark.parametrize("change", ["rewritten", "replaced"])
def test_a_file_changed_under_the_pass_stops_it(tmp_path: Path, change: str) -> None:
    """Rewritten in place (another size) or replaced by a file of the same size (another
    inode): the pass says so rather than read other lines at the first look's offsets."""
    qrels, run = write(tmp_path, [PLAIN_QRELS], [PLAIN_RUN], "grouped", 0)
    opened = open_plain_pass(qrels, run, ROWS, PlainOptions())
    assert opened is not None
    if change == "rewritten":
        Path(run).write_text(PLAIN_RUN + PLAIN_RUN)
    else:
        other = tmp_path / "other"
        other.write_text(PLAIN_RUN.replace("2.5", "3.5"))
        os.replace(other, run)
    with pytest.raises(PlainStop) as stop:
        list(opened)
    assert stop.value.reason == "changed"
