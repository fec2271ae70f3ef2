"""`focal pool` in-process: outputs, exit codes, bad input, determinism."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main as focal
from focal.pooling.cli.commands import pool

HEADER = "topic\tarticle\tfirst_round\tbest_rank\tcontributing_runs"


def write_run(path: Path, run_id: str, rows: list[tuple[str, str]]) -> Path:
    """An 8-field FOL run; ranks count per topic."""
    ranks: dict[str, int] = {}
    lines = []
    for topic, article in rows:
        ranks[topic] = ranks.get(topic, 0) + 1
        lines.append(f"{topic} Q0 {article} {ranks[topic]} 1.0 {run_id} 0 100\n")
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    # Topic 1 as in test_strategies (A: a1 a2 a1 a3 a4, ...) with numeric ids; topic 2 small.
    return [
        write_run(
            tmp_path / "a.run",
            "A",
            [("1", "11"), ("1", "12"), ("1", "11"), ("1", "13"), ("1", "14"), ("2", "21")],
        ),
        write_run(tmp_path / "b.run", "B", [("1", "31"), ("1", "11"), ("1", "32")]),
        write_run(
            tmp_path / "c.run",
            "C",
            [("1", "12"), ("1", "41"), ("1", "42"), ("1", "43"), ("2", "22")],
        ),
    ]


def invoke(*args: str | Path) -> tuple[int, str, str]:
    outcome = CliRunner().invoke(pool, [str(arg) for arg in args])
    return outcome.exit_code, outcome.stdout, outcome.stderr


def test_top_n_to_stdout_in_article_order(runs: list[Path]) -> None:
    code, out, err = invoke("--size", "4", *runs)
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        HEADER,
        "1\t11\t1\t1\tA,B",
        "1\t12\t1\t1\tA,C",
        "1\t31\t1\t1\tB",
        "1\t41\t2\t2\tC",
        "2\t21\t1\t1\tA",
        "2\t22\t1\t1\tC",
    ]


def test_the_build_sub_command_can_be_named_and_focal_maps_pool(runs: list[Path]) -> None:
    direct = invoke("--size", "4", *runs)
    named = invoke("build", "--method", "topn", "--size", "4", *runs)
    through_focal = CliRunner().invoke(focal, ["pool", "--size", "4", *map(str, runs)])
    assert direct == named
    assert through_focal.stdout == direct[1]


def test_depth_and_fusion_methods(runs: list[Path]) -> None:
    code, out, _ = invoke("--method", "depth", "--depth", "1", "--order", "rank", *runs)
    assert code == 0
    assert [line.split("\t")[1] for line in out.splitlines()[1:]] == ["11", "31", "12", "21", "22"]
    code, out, _ = invoke("--method", "borda", "--fused", "2", "--size", "2", *runs)
    assert code == 0
    assert "1\t11\t0\t1\tA,B" in out.splitlines()
    code, _, err = invoke("--method", "rrf", *runs)
    assert code == 2 and "--fused" in err


def test_output_files_are_written_and_byte_identical(runs: list[Path], tmp_path: Path) -> None:
    first, second = tmp_path / "p1.tsv", tmp_path / "p2.tsv"
    results = tmp_path / "results.tsv"
    for target in (first, second):
        code, out, _ = invoke(
            "--size",
            "3",
            "--order",
            "random",
            "--seed",
            "7",
            "-o",
            target,
            "--results",
            results,
            *runs,
        )
        assert code == 0 and out == ""
    assert first.read_bytes() == second.read_bytes()
    lines = results.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "topic\tarticle\trun\trank\tpassage"
    assert "1\t11\tA\t3\t0:100" in lines  # A's third result, inside pooled 11
    _, by_other_seed, _ = invoke("--size", "3", "--order", "random", "--seed", "8", *runs)
    assert sorted(by_other_seed.splitlines()) == sorted(first.read_text().splitlines())


@pytest.mark.parametrize(
    ("content", "line"),
    [
        ("1 Q0 11 1 1.0 A 0 100\n2 Q0 21 1 1.0 A 0 100\n1 Q0 12 2 1.0 A 0 100\n", 3),
        ("1 Q0 11 1 1.0 A 0 100\n1 Q0 12 2 1.0 A zero 100\n", 2),
        ("", None),
    ],
    ids=["repeated topic block", "unreadable line", "empty run"],
)
def test_bad_runs_give_one_line_exit_2_and_no_output(
    runs: list[Path], tmp_path: Path, content: str, line: int | None
) -> None:
    bad = tmp_path / "bad.run"
    bad.write_text(content, encoding="utf-8")
    output = tmp_path / "pool.tsv"
    code, out, err = invoke("-o", output, "--results", tmp_path / "r.tsv", runs[0], bad)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    where = str(bad) if line is None else f"{bad}:{line}"
    assert where + ":" in err
    assert not output.exists() and not (tmp_path / "r.tsv").exists()


def test_duplicate_run_ids_are_refused(runs: list[Path]) -> None:
    code, _, err = invoke(runs[0], runs[0])
    assert code == 2 and "run id 'A'" in err


def test_stats_tables_and_leave_one_group_out(runs: list[Path], tmp_path: Path) -> None:
    pool_file = tmp_path / "pool.tsv"
    assert invoke("--size", "4", "-o", pool_file, *runs)[0] == 0
    groups = tmp_path / "groups.tsv"
    groups.write_text("A\tg1\nB\tg1\nC\tg2\n", encoding="utf-8")
    code, out, _ = invoke("stats", pool_file, *runs, "--groups", groups)
    assert code == 0
    sections = [line for line in out.splitlines() if line.startswith("# ")]
    assert sections == ["# topics", "# runs", "# groups", "# overlap", "# depths"]
    code, out, _ = invoke("stats", pool_file, *runs, "--groups", groups, "--table", "groups")
    assert out.splitlines() == ["group\truns\tcontributed\tunique", "g1\t2\t4\t3", "g2\t1\t3\t2"]
    excluded = tmp_path / "without-g1.tsv"
    code, out, _ = invoke(
        "stats",
        pool_file,
        *runs,
        "--groups",
        groups,
        "--exclude-group",
        "g1",
        "--table",
        "excluded",
        "--excluded-pool",
        excluded,
    )
    assert code == 0
    assert out.splitlines() == [
        "topic\tfull_size\tpool_size\tlost",
        "1\t4\t2\t2",
        "2\t2\t1\t1",
        "all\t6\t3\t3",
    ]
    assert excluded.read_text().splitlines() == [
        HEADER,
        "1\t12\t1\t1\tC",
        "1\t41\t2\t2\tC",
        "2\t22\t1\t1\tC",
    ]
    code, _, err = invoke("stats", pool_file, *runs, "--exclude-group", "g1")
    assert code == 2 and "--groups" in err
    # Seed 003's reading: a top-4 pool built again from C alone reads C to rank 4 on topic 1
    # (12 41 42 43: nothing is lost there) and keeps 22 of topic 2.
    args = ("--groups", groups, "--exclude-group", "g1", "--table", "excluded")
    code, out, err = invoke("stats", pool_file, *runs, *args, "--exclude-method", "repool")
    assert code == 2 and "--size" in err
    code, out, err = invoke(
        "stats", pool_file, *runs, *args, "--exclude-method", "repool", "--size", "4"
    )
    assert code == 0 and "seed 003" in err
    assert out.splitlines()[1:] == ["1\t4\t4\t0", "2\t2\t1\t1", "all\t6\t5\t1"]
    code, out, err = invoke("stats", pool_file, *runs, *args)
    assert code == 0 and "seed 004" in err


def test_extend_reads_the_pool_and_the_judgements(runs: list[Path], tmp_path: Path) -> None:
    pool_file = tmp_path / "pool.tsv"
    assert invoke("--size", "4", "-o", pool_file, *runs)[0] == 0
    qrels = tmp_path / "judged.qrels"
    qrels.write_text("1 Q0 11 10 100 0 0:10\n1 Q0 31 0 100\n", encoding="utf-8")
    extended = tmp_path / "extended.tsv"
    code, _, err = invoke(
        "extend",
        pool_file,
        *runs,
        "--judged",
        qrels,
        "--budget",
        "100",
        "--step",
        "2",
        "-o",
        extended,
    )
    assert code == 0, err
    assert "extended 1 of 2 topics" in err
    lines = extended.read_text().splitlines()
    assert "1\t32\t3\t3\tB" in lines and "1\t43\t4\t4\tC" in lines
    # Depth counts distinct articles: A's 13 and 14 are its 3rd and 4th (results 4 and 5).
    assert "1\t13\t3\t4\tA" in lines and "1\t14\t4\t5\tA" in lines
    assert len(lines) == 1 + 6 + 5
