"""`focal pool` end to end on the real INEX 2010 runs: results file, stats, determinism."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from focal.pooling.cli.commands import pool


def fol_runs(inex2010: Path) -> list[Path]:
    return sorted((inex2010 / "runs").glob("*.fol.run"))


def plain_lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def pooled_pairs(pool_file: Path) -> set[tuple[str, str]]:
    rows = [line.split("\t") for line in pool_file.read_text(encoding="utf-8").splitlines()[1:]]
    return {(row[0], row[1]) for row in rows}


def test_results_file_lists_every_run_line_inside_a_pooled_article(
    inex2010: Path, tmp_path: Path
) -> None:
    runs = fol_runs(inex2010)
    pool_file, results = tmp_path / "pool.tsv", tmp_path / "results.tsv"
    outcome = CliRunner().invoke(
        pool, ["--size", "50", "-o", str(pool_file), "--results", str(results), *map(str, runs)]
    )
    assert outcome.exit_code == 0, outcome.output
    pooled = pooled_pairs(pool_file)
    expected = set()
    for path in runs:
        rank: dict[str, int] = {}
        for fields in plain_lines(path):
            topic, article, run_id = fields[0], fields[2], fields[5]
            rank[topic] = rank.get(topic, 0) + 1
            if (topic, article) in pooled:
                expected.add((topic, article, run_id, str(rank[topic]), f"{fields[6]}:{fields[7]}"))
    lines = results.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "topic\tarticle\trun\trank\tpassage"
    assert len(lines) - 1 == len(expected)
    assert {tuple(line.split("\t")) for line in lines[1:]} == expected


def test_leaving_the_bert_group_out_loses_exactly_what_only_bert_runs_contributed(
    inex2010: Path, tmp_path: Path
) -> None:
    runs = fol_runs(inex2010)
    pool_file = tmp_path / "pool.tsv"
    built = CliRunner().invoke(pool, ["--size", "100", "-o", str(pool_file), *map(str, runs)])
    assert built.exit_code == 0, built.output
    groups = tmp_path / "groups.tsv"
    groups.write_text(
        "bert-passages\tbert\nbert-passages-half\tbert\n"
        "indri-passages\tindri\nindri-passages-b\tindri\n",
        encoding="utf-8",
    )
    excluded = tmp_path / "without-bert.tsv"
    args = ["stats", str(pool_file), *map(str, runs), "--groups", str(groups)]
    outcome = CliRunner().invoke(
        pool,
        [*args, "--exclude-group", "bert", "--table", "excluded", "--excluded-pool", str(excluded)],
    )
    assert outcome.exit_code == 0, outcome.output
    rows = [line.split("\t") for line in pool_file.read_text(encoding="utf-8").splitlines()[1:]]
    only_bert = {
        (r[0], r[1])
        for r in rows
        if set(r[4].split(",")) <= {"bert-passages", "bert-passages-half"}
    }
    assert pooled_pairs(excluded) == pooled_pairs(pool_file) - only_bert
    last = outcome.output.splitlines()[-1].split("\t")
    assert last[0] == "all" and int(last[3]) == len(only_bert) > 0
    groups_table = CliRunner().invoke(pool, [*args, "--table", "groups"]).output.splitlines()
    unique = {row.split("\t")[0]: int(row.split("\t")[3]) for row in groups_table[1:]}
    assert unique["bert"] == len(only_bert)


def test_output_does_not_depend_on_the_hash_seed(inex2010: Path, tmp_path: Path) -> None:
    runs = [str(path) for path in fol_runs(inex2010)]
    outputs = []
    for hash_seed in ("1", "2"):
        target = tmp_path / f"pool-{hash_seed}.tsv"
        code = "import sys; from focal.assessor.cli.main import main; sys.exit(main())"
        args = [
            "pool",
            "--method",
            "rrf",
            "--fused",
            "30",
            "--size",
            "60",
            "--order",
            "random",
            "--seed",
            "3",
            "-o",
            str(target),
            *runs,
        ]
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, "-c", code, *args], check=True, env=environment)
        outputs.append(target.read_bytes())
    assert outputs[0] == outputs[1]
