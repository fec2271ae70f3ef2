"""`running.article_pass` against the article engine: on random plain files (topics the run
misses and topics the qrels lack, ties, graded qrels with negative grades, grouped or shuffled
lines) and several measure vocabularies, each run the whole-file pass (the C part's, and the
numpy one that answers without it) answers is the engine's
evaluation (`evaluate_named` of `load_index` and `load_run`) to the bit, counts as integers;
every call the pass might answer otherwise (a duplicate the engine refuses, -M, a row with
options of its own, a FOL run, 9.x with a topic missed) is declined and the engine answers."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.errors import FormatError
from focal.evaluation.measures.trec_eval.engine.summary import TrecEvaluation, TrecOptions
from focal.evaluation.measures.trec_eval.engine.vocabulary import evaluate_named
from focal.evaluation.measures.trec_eval.names import NOT_IN_9
from focal.evaluation.measures.trec_eval.selection import select
from focal.evaluation.running import article_pass
from focal.evaluation.running.article_pass import (
    Summarised,
    answered_topics,
    completed,
    on_pass,
    pass_evaluation,
)
from focal.evaluation.running.articles import load_index, load_run
from tests.evaluation.measures.trec_eval.test_plain_pass import (
    LAYOUTS,
    Files,
    collections,
    examples,
    qrels_lines,
    run_lines,
    write,
)

pytestmark = pytest.mark.usefixtures("each_pass")

# trec_eval's sets, its parameters, ir_measures' and Focal's spellings of trec_eval's rows
VOCABULARIES = [
    ["official"], ["all_trec"],
    ["AP", "nDCG@3", "P@2", "R@5", "RR", "Rprec", "Bpref", "NumRet", "NumRelRet", "SetP"],
    ["P.1,3", "ndcg.1=3,2=9", "relstring.4", "gm_map", "utility.1,-1,0,0", "rbp.p=0.5",
     "num_nonrel_judged_ret", "infAP", "11pt_avg", "runid"],
]  # fmt: skip
OPTIONS = st.tuples(st.integers(0, 3), st.sampled_from([9, 10]), st.booleans(), st.booleans(),
                    st.sampled_from([0, 1000]))  # fmt: skip


def the_engine(qrels: str, run: str, names: list[str], options: TrecOptions) -> TrecEvaluation:
    return evaluate_named(load_index(qrels), load_run(run, False), select(names), options)


def same(a: object, b: object) -> bool:
    """Equal values of equal types, floats to the bit (NaN as NaN, signed zeros apart)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and isinstance(b, float):
        return math.copysign(1.0, a) == math.copysign(1.0, b) and (
            a == b or (math.isnan(a) and math.isnan(b))
        )
    return a == b


def same_evaluation(found: TrecEvaluation, expected: TrecEvaluation) -> None:
    assert (found.run_id, found.file, found.options) == (expected.run_id, expected.file,
                                                         expected.options)  # fmt: skip
    assert (found.topics, found.answered) == (expected.topics, expected.answered)
    assert (found.unknown_topics, found.warnings) == (expected.unknown_topics, expected.warnings)
    assert list(found.summary) == list(expected.summary)
    for name, value in expected.summary.items():
        assert same(found.summary[name], value), (name, found.summary[name], value)
    assert list(found.values) == list(expected.values)
    for name, column in expected.values.items():
        assert len(found.values[name]) == len(column)
        for got, wanted in zip(found.values[name], column, strict=True):
            assert same(got, wanted), (name, got, wanted)


@examples(120)
@given(collections(), OPTIONS, LAYOUTS, st.integers(0, 99), st.sampled_from(VOCABULARIES))
def test_each_run_the_pass_answers_is_the_engines(tmp_path: Path, files: Files,
                                                  options: tuple[int, int, bool, bool, int],
                                                  layout: str, seed: int,
                                                  names: list[str]) -> None:  # fmt: skip
    qrels, run = files
    if not qrels or not run:
        return
    level, version, complete, judged_only, num_docs = options
    if version == 9:
        names = [name for name in names if name.split(".")[0] not in NOT_IN_9]
    paths = write(tmp_path, qrels_lines(qrels), run_lines(run), layout, seed)
    chosen = TrecOptions(level, None, complete, version, judged_only, num_docs)
    expected = the_engine(*paths, names, chosen)
    found = pass_evaluation(*paths, select(names), chosen)
    missed = any(topic not in run for topic in qrels)
    if found is None:  # 9.x has no stand-in ranking: a missed topic's qrels went unread
        assert version == 9 and missed
        return
    same_evaluation(found, expected)
    summarised = pass_evaluation(*paths, select(names), chosen, per_topic=False)
    assert isinstance(summarised, Summarised)
    assert (summarised.topics, summarised.values, summarised.answered) == ([], {}, [])
    assert answered_topics(summarised) == answered_topics(expected) == sum(expected.answered)
    same_evaluation(summarised, TrecEvaluation(
        expected.run_id, expected.file, chosen, [], {}, expected.summary, [],
        expected.unknown_topics, expected.warnings,
    ))  # fmt: skip


@examples(150)
@given(collections(duplicates=True), st.sampled_from([9, 10]), st.booleans(), LAYOUTS,
       st.integers(0, 99), st.booleans())  # fmt: skip
def test_what_the_engine_refuses_is_declined(tmp_path: Path, files: Files, version: int,
                                             complete: bool, layout: str, seed: int,
                                             qrels_twice: bool) -> None:  # fmt: skip
    """A document twice in a topic of either file, wherever it is (a topic the run misses or
    the qrels lack): the engine refuses the run, so the pass gives no answer; where the engine
    answers, the pass answers the same or declines."""
    qrels, run = files
    if not qrels or not run:
        return
    lines = qrels_lines(qrels)
    if qrels_twice:
        lines = [*lines, lines[seed % len(lines)]]
    paths = write(tmp_path, lines, run_lines(run), layout, seed)
    chosen = TrecOptions(complete=complete, version=version)
    found = pass_evaluation(*paths, select(["official"]), chosen)
    try:
        expected = the_engine(*paths, ["official"], chosen)
    except (FormatError, ValueError):
        assert found is None
        return
    if found is not None:
        same_evaluation(found, expected)


QRELS = "1 0 a 2\n1 0 b 0\n1 0 c 1\n2 0 d 1\n2 0 e -1\n3 0 f 1\n"
RUN = "1 Q0 a 1 2.5 r\n1 Q0 b 2 2.5 r\n1 Q0 x 3 1 r\n2 Q0 d 1 0.5 r\n4 Q0 z 1 1 r\n"


@pytest.mark.parametrize(("qrels", "run", "names", "options"), [
    (QRELS, RUN, ["map"], TrecOptions(max_docs=2)),  # -M: a duplicate beyond it is unread
    (QRELS, RUN, ["map", "P(rel=2)@1"], TrecOptions()),  # a row with options of its own
    (QRELS, RUN, ["Judged@2"], TrecOptions()),
    (QRELS, RUN.replace(" r\n", " r 0 10\n"), ["map"], TrecOptions()),  # a FOL run: best result
    (QRELS, RUN, ["map"], TrecOptions(version=9)),  # 9.x, topic 3 missed
    (QRELS, RUN + "4 Q0 z 2 0.5 r\n", ["map"], TrecOptions()),  # twice in a topic qrels lack
    (QRELS + "3 0 f 0\n", RUN, ["map"], TrecOptions()),  # judged twice in a topic run misses
    (QRELS, RUN + "5 Q0 z 1 1 r\n4 Q0 z 2 1 r\n", ["map"], TrecOptions()),  # so, in 2 groups
    (QRELS, RUN.replace("2.5", "nan"), ["map"], TrecOptions()),  # not plain
])  # fmt: skip
def test_declined(tmp_path: Path, qrels: str, run: str, names: list[str],
                  options: TrecOptions) -> None:  # fmt: skip
    paths = write(tmp_path, [qrels], [run], "grouped", 0)
    assert pass_evaluation(*paths, select(names), options) is None


def test_the_same_files_apart_from_what_declines_them_are_answered(tmp_path: Path) -> None:
    """The cases of `test_declined` that the pass can answer once the obstacle is gone: the
    decline comes from what each changes, not from the files."""
    paths = write(tmp_path, [QRELS], [RUN], "grouped", 0)
    found = pass_evaluation(*paths, select(["map", "P.1"]), TrecOptions())
    assert found is not None and found.unknown_topics == ["4"]
    same_evaluation(found, the_engine(*paths, ["map", "P.1"], TrecOptions()))
    complete = TrecOptions(version=9, complete=True)
    assert pass_evaluation(*paths, select(["map"]), complete) is None  # (9.x: topic 3)
    paths = write(tmp_path, [QRELS], [RUN + "3 Q0 f 1 1 r\n"], "grouped", 0)
    found = pass_evaluation(*paths, select(["map"]), complete)
    assert found is not None
    same_evaluation(found, the_engine(*paths, ["map"], complete))


def test_the_runs_keep_their_order_whichever_evaluates_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A plain run, a FOL run (the engine's) and a plain one again: the evaluations in the
    runs' order, the engine given only the run the pass declined."""
    qrels = tmp_path / "q"
    qrels.write_text(QRELS)
    runs = []
    for name, text in (("a", RUN), ("b", RUN.replace(" r\n", " s 0 10\n")),
                       ("c", RUN.replace(" r\n", " t\n").replace("2.5", "0.1"))):  # fmt: skip
        (tmp_path / name).write_text(text)
        runs.append(str(tmp_path / name))
    from focal.evaluation.running import articles

    given: list[list[str]] = []
    real = articles.evaluate_article_files

    def evaluated(qrels: str, paths: list[str], *rest: object) -> object:
        given.append(list(paths))
        return real(qrels, paths, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(articles, "evaluate_article_files", evaluated)
    names = ["map", "P.2"]
    found = on_pass(str(qrels), runs, select(names), TrecOptions())
    assert [evaluation is None for evaluation in found] == [False, True, False]
    evaluations = completed(str(qrels), runs, found, names, TrecOptions())
    assert given == [[runs[1]]]
    assert [e.run_id for e in evaluations] == ["r", "s", "t"]
    for path, evaluation in zip(runs, evaluations, strict=True):
        same_evaluation(evaluation, the_engine(str(qrels), path, names, TrecOptions()))
    summarised = on_pass(str(qrels), runs, select(names), TrecOptions(), per_topic=False)
    assert [type(e) for e in summarised] == [Summarised, type(None), Summarised]


def test_a_file_that_cannot_be_read_goes_to_the_engine_which_names_it(tmp_path: Path) -> None:
    paths = write(tmp_path, [QRELS], [RUN], "grouped", 0)
    runs = [paths[1], str(tmp_path / "absent")]
    found = on_pass(paths[0], runs, select(["map"]), TrecOptions())
    assert found[1] is None
    with pytest.raises(FormatError, match="absent"):
        completed(paths[0], runs, found, ["map"], TrecOptions())


@pytest.mark.parametrize(("text", "twice"), [
    ("1 Q0 a 1 1 r\n1 Q0 a 2 1 r\n4 Q0 z 1 1 r\n4 Q0 y 2 1 r\n", {"1"}),
    ("4 Q0 z 1 1 r\n1 Q0 a 1 1 r\n4 Q0 y 2 1 r\n1 Q0 b 1 1 r\n", set()),  # in two groups
    ("4 Q0 z 1 1 r\n1 Q0 a 1 1 r\n4 Q0 z 2 1 r\n1 Q0 b 1 1 r\n", {"4"}),
])  # fmt: skip
def test_duplicates_found_among_the_topics_asked(tmp_path: Path, text: str,
                                                 twice: set[str]) -> None:  # fmt: skip
    """`_twice_among` looks only at the topics asked, whether or not each topic's lines come
    in one group."""
    path = tmp_path / "run"
    path.write_text(text)
    for topic in ("1", "4"):
        assert article_pass._twice_among(str(path), {topic}) == (topic in twice)
    assert article_pass._twice_among(str(path), {"1", "4"}) == bool(twice)
