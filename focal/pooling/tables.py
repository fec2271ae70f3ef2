"""The tables `focal pool stats` prints: rows of strings, header first (docs/pooling.md)."""

from __future__ import annotations

from collections.abc import Iterator

from focal.evaluation.output.tables import table_lines, titled_tables
from focal.pooling.records import Pool
from focal.pooling.stats import PoolStatistics

TABLES = ("topics", "runs", "groups", "overlap", "depths", "excluded")


def statistics_tables(statistics: PoolStatistics) -> dict[str, list[list[str]]]:
    """The statistics as tables of strings, header row first."""
    topic_rows = [*statistics.topics, statistics.overall]
    return {
        "topics": [
            [
                "topic",
                "pool_size",
                "runs",
                "mean_depth",
                "min_depth",
                "max_depth",
                "unique_to_run",
                "unique_to_group",
            ],
            *[
                [
                    r.topic,
                    str(r.pool_size),
                    str(r.runs),
                    f"{r.mean_depth:.2f}",
                    str(r.min_depth),
                    str(r.max_depth),
                    str(r.unique_to_run),
                    str(r.unique_to_group),
                ]
                for r in topic_rows
            ],
        ],
        "runs": [
            ["run", "group", "topics", "mean_depth", "contributed", "unique"],
            *[
                [
                    r.run_id,
                    r.group,
                    str(r.topics),
                    f"{r.mean_depth:.2f}",
                    str(r.contributed),
                    str(r.unique),
                ]
                for r in statistics.runs
            ],
        ],
        "groups": [
            ["group", "runs", "contributed", "unique"],
            *[[g.group, str(g.runs), str(g.contributed), str(g.unique)] for g in statistics.groups],
        ],
        "overlap": [
            ["run_a", "run_b", "shared", "jaccard"],
            *[[o.run_a, o.run_b, str(o.shared), f"{o.jaccard:.4f}"] for o in statistics.overlaps],
        ],
        "depths": [
            ["topic", "run", "depth"],
            *[
                [topic, run, str(depth)]
                for topic, per_run in statistics.depths.items()
                for run, depth in per_run.items()
            ],
        ],
    }


def excluded_table(full: Pool, excluded: Pool) -> list[list[str]]:
    """Per topic and `all`: full pool size, leave-one-group-out pool size, articles lost."""
    rows = [["topic", "full_size", "pool_size", "lost"]]
    for topic, topic_pool in full.topics.items():
        kept = len(excluded.topics[topic]) if topic in excluded.topics else 0
        rows.append([topic, str(len(topic_pool)), str(kept), str(len(topic_pool) - kept)])
    rows.append(["all", str(full.size()), str(excluded.size()), str(full.size() - excluded.size())])
    return rows


def statistics_lines(tables: dict[str, list[list[str]]], titled: bool) -> Iterator[str]:
    """Tab-separated lines, header first; with `titled`, each table under a `# name` line,
    blank-separated (without, one table as plain TSV)."""
    lines = {name: table_lines(rows[0], rows[1:], "tsv") for name, rows in tables.items()}
    return titled_tables(lines, title_first=titled)
