"""`focal pool build`: pool files from RUN files, or database pools when no RUN file is given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import Pool, PoolEntry
from focal.assessor.web.app import create_app

from .test_commands import prepared


def pooled(tmp_path: Path) -> dict[str, list[str]]:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite'}"})
    with db.session_scope(app) as session:
        rows = session.execute(
            select(Pool.topic_id, PoolEntry.article)
            .join(PoolEntry, PoolEntry.pool_id == Pool.id)
            .order_by(Pool.topic_id, PoolEntry.position)
        )
        result: dict[str, list[str]] = {}
        for topic, article in rows:
            result.setdefault(topic, []).append(article)
        return result


def test_without_run_files_the_pool_goes_to_the_database(cli: Any, tmp_path: Path) -> None:
    prepared(cli, tmp_path)
    out = cli("pool", "build", "--method", "topn", "--size", "1", "--topic", "9")
    # Top-n with n = 1 stops after round 1: only the run's first article (1002).
    assert out.output.strip() == "topic 9: 1 articles"
    assert pooled(tmp_path) == {"9": ["1002"]}
    cli("pool", "--method", "depth", "--depth", "2")
    assert pooled(tmp_path) == {"9": ["1001", "1002"]}


def test_with_run_files_the_pool_goes_to_a_file(cli: Any, tmp_path: Path) -> None:
    prepared(cli, tmp_path)
    out = cli("pool", "build", "--size", "2", str(tmp_path / "r1.run"))
    assert out.output.splitlines()[0].startswith("topic\tarticle")
    assert [line.split("\t")[1] for line in out.output.splitlines()[1:]] == ["1001", "1002"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "rrf", "--fused", "2"], "database pools support --method topn or depth"),
        (["--size", "2", "-o", "pool.tsv"], "--output: only for pools built from RUN files"),
        (["--method", "depth"], "--method depth needs --depth K"),
    ],
)
def test_file_only_options_are_refused_for_database_pools(
    cli: Any, tmp_path: Path, args: list[str], message: str
) -> None:
    prepared(cli, tmp_path)
    result = cli("pool", "build", *args, code=2)
    assert message in result.output + result.stderr


def test_topic_is_refused_with_run_files(cli: Any, tmp_path: Path) -> None:
    prepared(cli, tmp_path)
    result = cli("pool", "build", "--topic", "9", str(tmp_path / "r1.run"), code=2)
    assert "--topic applies to database pools" in result.output + result.stderr


def test_pool_stats_reports_the_database_pools(cli: Any, tmp_path: Path) -> None:
    cli("init-db")
    assert "run `focal pool build`" in cli("pool", "stats", code=2).stderr
    prepared(cli, tmp_path)  # topic 9 pooled top-n, n = 3, from the run r1
    topics = cli("pool", "stats", "--table", "topics").output.splitlines()
    assert topics[0].split("\t")[:3] == ["topic", "pool_size", "runs"]
    # Three articles pooled (one is not in the collection, so the stored pool has two).
    assert topics[1].split("\t")[:3] == ["9", "3", "1"]
    runs = cli("pool", "stats", "--table", "runs").output.splitlines()
    assert runs[1].split("\t")[0] == "r1" and runs[1].split("\t")[4] == "3"  # contributed
    assert "# topics" in cli("pool", "stats").output


def test_the_old_names_are_hidden_aliases_with_the_same_option_meanings(cli: Any) -> None:
    # pool-build --size is n of top-n, as in `pool build`; depth-k takes --depth, never --size.
    assert "--depth K" in cli("pool-build", "--method", "depth", "--size", "3", code=2).stderr
    listing = cli("--help").output
    assert "pool-build" not in listing and "pool-stats" not in listing


def test_pool_stats_options_of_a_pool_file_are_refused_for_the_database(cli: Any) -> None:
    assert "only for a POOL file" in cli("pool", "stats", "--size", "3", code=2).stderr
