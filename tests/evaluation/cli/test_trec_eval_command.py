"""`focal trec_eval`'s options, quirks and refusals, on small files worked by hand.

Every run here is ranked as trec_eval ranks it: score descending, then document id descending.
Rows are trec_eval's `%-22s\\t%s\\t%s` lines; `rows()` reads them back as {(name, topic): text}.
"""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest

from focal.evaluation.cli.trec_eval.command import main


def run_command(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def rows(text: str) -> dict[tuple[str, str], str]:
    table = {}
    for line in text.splitlines():
        name, topic, value = line.split("\t")
        table[(name.rstrip(), topic)] = value
    return table


def files(tmp_path: Path, qrels: str, run: str) -> tuple[str, str]:
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    return str(tmp_path / "q"), str(tmp_path / "r")


def test_judged_only_drops_unjudged_documents(tmp_path: Path) -> None:
    """a relevant, b judged non-relevant; x is not in the qrels. Ranked x, a, b: AP = (1/2)/1.
    With -J x is dropped before any measure: a is first, AP 1, two documents retrieved."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 0\n", "1 Q0 x 1 3 s\n1 Q0 a 2 2 s\n1 Q0 b 3 1 s\n")
    _, plain, _ = run_command("-m", "map", "-m", "num_ret", q, r)
    _, judged, _ = run_command("-J", "-m", "map", "-m", "num_ret", q, r)
    assert rows(plain)[("map", "all")] == "0.5000" and rows(plain)[("num_ret", "all")] == "3"
    assert rows(judged)[("map", "all")] == "1.0000" and rows(judged)[("num_ret", "all")] == "2"


def test_nosummary_and_per_topic(tmp_path: Path) -> None:
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 1 s\n")
    code, out, _ = run_command("-q", "-n", "-m", "map", q, r)
    assert code == 0 and out == f"{'map':<22}\t1\t1.0000\n"  # no runid, no `all` rows


def test_collection_size_enters_utility(tmp_path: Path) -> None:
    """utility.0,0,0,1 is its fourth term alone: N + rel_ret − ret − rel. One relevant (a), two
    retrieved (a, x), a found: 100 + 1 − 2 − 1 = 98 with -N 100; 0 + 1 − 2 − 1 = −2 without."""
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 2 s\n1 Q0 x 2 1 s\n")
    _, out, _ = run_command("-N", "100", "-m", "utility.0,0,0,1", q, r)
    assert rows(out)[("utility_0,0,0,1", "all")] == "98.0000"
    _, out, _ = run_command("-m", "utility.0,0,0,1", q, r)
    assert rows(out)[("utility_0,0,0,1", "all")] == "-2.0000"


def test_missing_topic_stops_without_complete(tmp_path: Path) -> None:
    """Qrels topics 1 and 2, the run answers 1 only: 10.0 stops with exit 4 and prints nothing;
    with -c topic 2 is an empty ranking (num_ret 0, its num_rel 1, map 0): map (1 + 0)/2."""
    q, r = files(tmp_path, "1 0 a 1\n2 0 b 1\n", "1 Q0 a 1 1 s\n")
    code, out, err = run_command(q, r)
    assert code == 4 and out == "" and "'2'" in err
    code, out, _ = run_command("-c", "-q", "-m", "map", "-m", "num_ret", "-m", "num_rel", q, r)
    table = rows(out)
    assert code == 0 and table[("num_ret", "2")] == "0" and table[("num_rel", "2")] == "1"
    assert table[("map", "all")] == "0.5000"
    code, _, _ = run_command("--trec-version", "9", "-m", "map", q, r)  # 9.x skips topic 2
    assert code == 0


def test_complete_num_rel_counts_every_positive_grade(tmp_path: Path) -> None:
    """Grades 1, 2, 3 in topic 1 and -l 3: one relevant document per topic row, but with -c the
    `all` row counts every qrels grade above 0, whatever -l says: 3 (m_num_rel.c)."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 2\n1 0 c 3\n", "1 Q0 c 1 1 s\n")
    _, out, _ = run_command("-c", "-q", "-l", "3", "-m", "num_rel", q, r)
    assert rows(out) == {("num_rel", "1"): "1", ("num_rel", "all"): "3"}
    _, out, _ = run_command("-q", "-l3", "-m", "num_rel", q, r)  # without -c: the sum, 1
    assert rows(out)[("num_rel", "all")] == "1"


def test_max_docs_per_topic(tmp_path: Path) -> None:
    """-M1 keeps the first ranked document only: x (score 2), not a: nothing found."""
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 1 s\n1 Q0 x 2 2 s\n")
    _, out, _ = run_command("-M1", "-m", "num_ret", "-m", "map", q, r)
    assert rows(out) == {("num_ret", "all"): "1", ("map", "all"): "0.0000"}


def test_zscores(tmp_path: Path) -> None:
    """map 1 against mean 0.5, deviation 0.25: (1 − 0.5)/0.25 = 2. num_ret has no line in the
    file: -1000000. Names take a `Z`; counts print as `%6.4f` too."""
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 1 s\n")
    (tmp_path / "z").write_text("1 map 0.5 0.25\n")
    _, out, _ = run_command("-q", "-Z", str(tmp_path / "z"), "-m", "map", "-m", "num_ret", q, r)
    lines = out.splitlines()
    assert f"Z{'map':<22}\t1\t2.0000" in lines and f"Z{'num_ret':<22}\t1\t-1000000.0000" in lines
    assert f"Z{'map':<22}\tall\t2.0000" in lines


def test_ndcg_gains_and_rbp_and_relstring(tmp_path: Path) -> None:
    """a grade 1, b grade 2; the run ranks b then a. Default gains (the grades): the ranking is
    ideal, ndcg 1. With gains 1=3, 2=1 the ideal is a (3) then b (1): ndcg = (1 + 3/log2 3) /
    (3 + 1/log2 3). rbp.p=0.5 with grades as gains rescaled to [0,1] (max 2): b 1, a 0.5:
    (1 − 0.5)(1 + 0.5·0.5) = 0.625. relstring: '21'."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 2\n", "1 Q0 b 1 2 s\n1 Q0 a 2 1 s\n")
    _, out, _ = run_command("-q", "-m", "ndcg", "-m", "relstring", "-m", "rbp.p=0.5", q, r)
    table = rows(out)
    assert table[("ndcg", "all")] == "1.0000" and table[("relstring", "1")] == "'21'"
    assert table[("rbp_p=0.5", "all")] == "0.6250"
    _, out, _ = run_command("-m", "ndcg.1=3,2=1", q, r)
    expected = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert rows(out)[("ndcg_1=3,2=1", "all")] == f"{expected:6.4f}"


def test_reading_as_ten_does(tmp_path: Path) -> None:
    """Tabs and runs of spaces between fields, fields after the sixth, `#` lines, topics
    interleaved; the run id is the last line's."""
    run = "# a comment\n2\tQ0  b 1 1 first\n1 Q0 a 1 1 x extra fields\n2 Q0 c 2 0.5 last\n"
    q, r = files(tmp_path, "1 0 a 1\n2 0 c 1\n", run)
    code, out, err = run_command("-m", "runid", "-m", "num_ret", "-m", "map", q, r)
    assert code == 0, err
    assert rows(out) == {("runid", "all"): "last", ("num_ret", "all"): "3",
                         ("map", "all"): "0.7500"}  # fmt: skip  # (1 + 1/2) / 2


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["-m", "nonesuch", "q", "r"], 1, "illegal measure 'nonesuch'"),
        (["-m", "P.5,5", "q", "r"], 2, "duplicate cut-offs"),
        (["-x", "q", "r"], 1, "Usage"),
        (["q"], 1, "Usage"),
        (["-T", "other", "q", "r"], 2, "Illegal retrieval results format 'other'"),
        (["-R", "other", "q", "r"], 2, "Illegal rel_format 'other'"),
        (["-R", "qrels_jg", "-m", "qrels_jg", "-Z", "q", "q", "r"], 2, "-Z with -R qrels_jg"),
        (["-R", "prefs", "-m", "map", "q", "r"], 4, "needs -R qrels"),
        (["-m", "map_avgjg", "q", "r"], 4, "needs -R qrels_jg"),
        (["-R", "qrels_jg", "-m", "map", "q", "r"], 4, "needs -R qrels"),
        (["-v"], 0, "trec_eval version 10.0"),
    ],
)
def test_refusals_and_exit_codes(tmp_path: Path, argv: list[str], code: int, message: str) -> None:
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 1 s\n")
    argv = [q if a == "q" else r if a == "r" else a for a in argv]
    got, out, err = run_command(*argv)
    assert got == code and out == "" and message in err


def test_duplicate_document_and_malformed_line(tmp_path: Path) -> None:
    q, r = files(tmp_path, "1 0 a 1\n", "1 Q0 a 1 1 s\n1 Q0 a 2 0.5 s\n")
    code, out, err = run_command(q, r)
    assert code == 4 and out == "" and f"{r}: document 'a' appears twice in topic '1'" in err
    q, r = files(tmp_path, "1 0 a\n", "1 Q0 a 1 1 s\n")
    code, out, err = run_command(q, r)
    assert code == 2 and out == "" and f"{q}:1: expected 4 fields" in err


def test_help_goes_to_stdout() -> None:
    code, out, _ = run_command("-h")
    assert code == 0 and "--Judged_docs_only" in out and "all_trec" in out


def test_judgement_groups_average_over_a_topics_groups(tmp_path: Path) -> None:
    """Topic 1 judged by two users: u1 finds a relevant, u2 finds a and b relevant. The run
    ranks a, then x, then b. map: u1 1/1 = 1; u2 (1/1 + 2/3)/2 = 5/6; map_avgjg = (1 + 5/6)/2
    = 0.9167. P_avgjg_5: (1/5 + 2/5)/2 = 0.3."""
    qrels = "1 u1 a 1\n1 u1 b 0\n1 u2 a 1\n1 u2 b 1\n"
    q, r = files(tmp_path, qrels, "1 Q0 a 1 3 s\n1 Q0 x 2 2 s\n1 Q0 b 3 1 s\n")
    code, out, err = run_command("-R", "qrels_jg", "-m", "qrels_jg", "-m", "P_avgjg.5", q, r)
    assert code == 0, err
    table = rows(out)
    assert table[("map_avgjg", "all")] == "0.9167" and table[("P_avgjg_5", "all")] == "0.3000"
    assert table[("num_q", "all")] == "1" and table[("runid", "all")] == "s"


def test_preferences_one_user_ranks_three_documents(tmp_path: Path) -> None:
    """One judgement group ranks a (2) > b (1) > c (0): preferences a>b, a>c, b>c. The run
    retrieves c, then a (b not retrieved); numbered c 0, a 1, b 2 (unretrieved). a>b: implied,
    fulfilled (1 < 2); a>c: retrieved, not fulfilled (1 > 0); b>c: implied (c retrieved, b not),
    not fulfilled. Possible 3, fulfilled 1: prefs_simp 1/3; retrieved only: 0 of 1; retrieved
    and implied: 1 of 3."""
    prefs = "1 u s a 2\n1 u s b 1\n1 u s c 0\n"
    q, r = files(tmp_path, prefs, "1 Q0 c 1 2 s\n1 Q0 a 2 1 s\n")
    code, out, err = run_command("-R", "prefs", "-m", "all_prefs", q, r)
    assert code == 0, err
    table = rows(out)
    assert table[("prefs_num_prefs_poss", "all")] == "3"
    assert table[("prefs_num_prefs_ful", "all")] == "1"
    assert table[("prefs_simp", "all")] == "0.3333" and table[("prefs_simp_ret", "all")] == "0.0000"
    assert table[("prefs_simp_imp", "all")] == "0.3333"


def test_preference_ties_rank_by_id_ascending(tmp_path: Path) -> None:
    """trec_eval's preference code breaks score ties by document id ascending (its qrels code,
    descending): a and b tie, a (preferred) is ranked first, so the one preference is fulfilled
    among the retrieved: prefs_simp_ret 1. The same files as qrels give map 1/2 (b first)."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 0\n", "1 Q0 a 1 1 s\n1 Q0 b 2 1 s\n")
    _, out, _ = run_command("-R", "qrels_prefs", "-m", "prefs_simp_ret", q, r)
    assert rows(out)[("prefs_simp_ret", "all")] == "1.0000"
    _, out, _ = run_command("-m", "map", q, r)
    assert rows(out)[("map", "all")] == "0.5000"


@pytest.mark.parametrize("rel_format", ["qrels", "qrels_jg", "prefs", "qrels_prefs"])
def test_judgements_of_no_topic_of_the_run_stop_alike(tmp_path: Path, rel_format: str) -> None:
    """Judgements the run shares no topic with stop every -R alike: an empty file with exit
    code 2 (10.0 cannot read it), one of comments with 7 (10.0 crashes: docs/trec_eval.md); a
    topic the run misses with 4, or with -c it scores 0."""
    line = "9 g s a 1\n" if rel_format == "prefs" else "9 g a 1\n"
    measure = {"qrels": "map", "qrels_jg": "map_avgjg"}.get(rel_format, "prefs_simp")
    run = "1 Q0 a 1 1 s\n"
    q, r = files(tmp_path, "", run)
    code, out, err = run_command("-R", rel_format, "-m", measure, q, r)
    assert (code, out) == (2, "") and f"Cannot read qrels file '{q}'" in err
    q, r = files(tmp_path, "# only a comment\n", run)
    code, out, err = run_command("-R", rel_format, "-m", measure, q, r)
    assert (code, out) == (7, ""), err
    assert err == "trec_eval: No queries with both results and relevance info\n"
    q, r = files(tmp_path, line, run)
    code, out, err = run_command("-R", rel_format, "-m", measure, q, r)
    assert (code, out) == (4, "") and "result qid '9' not found" in err
    code, out, err = run_command("-c", "-R", rel_format, "-m", measure, q, r)
    assert code == 0, err
    assert rows(out)[(measure, "all")] == "0.0000"


def test_first_topic_with_only_negative_judgements_stops(tmp_path: Path) -> None:
    """10.0 allocates each topic's table of grades as it goes; when the first topic it evaluates
    has only negative grades, the table is empty, the allocator returns nothing and 10.0 stops
    with exit 4 naming the first measure. The same topic evaluated second is fine (scores 0)."""
    q, r = files(tmp_path, "1 0 a -1\n2 0 b 1\n", "1 Q0 a 1 1 s\n2 Q0 b 1 1 s\n")
    code, out, err = run_command("-m", "P.1", "-m", "map", q, r)
    assert code == 4 and out == "" and "Can't calculate measure 'map'" in err
    q, r = files(tmp_path, "1 0 a 1\n2 0 b -1\n", "1 Q0 a 1 1 s\n2 Q0 b 1 1 s\n")
    code, out, _ = run_command("-q", "-m", "map", q, r)
    assert code == 0 and rows(out)[("map", "2")] == "0.0000"


def test_complete_keeps_stand_in_values_of_rows_named_with_parameters(tmp_path: Path) -> None:
    """With -c 10.0 scores a missing topic as a ranking of one document outside the pool, then
    resets the rows named exactly `utility`, `num_ret`, `relstring`, `rbp_resid` and `unj*`.
    Topic 2 (R = 1) is missing. `utility` (1, −1, 0, 0) is reset to 0; `utility_1,2,3,4` keeps
    the stand-in's 1·0 + 2·(1 − 0) + 3·(1 − 0) + 4·(0 + 0 − 1 − 1) = −3."""
    q, r = files(tmp_path, "1 0 a 1\n2 0 b 1\n", "1 Q0 a 1 1 s\n")
    _, out, _ = run_command("-c", "-q", "-m", "utility", q, r)
    assert rows(out)[("utility", "2")] == "0.0000"
    _, out, _ = run_command("-c", "-q", "-m", "utility.1,2,3,4", q, r)
    assert rows(out)[("utility_1,2,3,4", "2")] == "-3.0000"


def test_yaap(tmp_path: Path) -> None:
    """Two relevant documents, the run finds one at rank 2: S = 1/2, R = 2, yaap =
    ln((1 + 1/2) / (1 + 2 − 1/2)) = ln(0.6) = −0.5108."""
    q, r = files(tmp_path, "1 0 a 1\n1 0 b 1\n", "1 Q0 x 1 2 s\n1 Q0 a 2 1 s\n")
    _, out, _ = run_command("-m", "yaap", q, r)
    assert rows(out)[("yaap", "all")] == f"{math.log(0.6):6.4f}" == "-0.5108"


def test_debug_topic_evaluates_that_topic_alone(tmp_path: Path) -> None:
    """-D 0.2 (debug level 0, topic 2): 10.0 skips every other qrels topic, so num_q is 1 and map
    is topic 2's (b at rank 2: 1/2); a topic the qrels lack leaves nothing to evaluate (exit 7)."""
    q, r = files(tmp_path, "1 0 a 1\n2 0 b 1\n", "1 Q0 a 1 1 s\n2 Q0 x 1 2 s\n2 Q0 b 2 1 s\n")
    _, out, _ = run_command("-D", "0.2", "-m", "num_q", "-m", "map", q, r)
    assert rows(out) == {("num_q", "all"): "1", ("map", "all"): "0.5000"}
    code, out, _ = run_command("-D", "0.9", "-m", "map", q, r)
    assert code == 7 and out == ""
