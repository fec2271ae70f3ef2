"""`focal pool forecast`: what the judgements left could still change (docs/forecast.md).

    focal pool forecast QRELS_SO_FAR RUN... [--pool POOL] [--confidence 0.9] [--format tsv]

QRELS_SO_FAR is any qrels file Focal reads (FOL or TREC; a TREC grade below 0 is not judged,
above 0 relevant). The unjudged articles are those of the pool missing from it: POOL when given,
otherwise the runs' top-n pool with n the most articles the qrels judge in one topic. tsv: one
row per topic (`topic, judged, relevant_found, relevant_left_low, relevant_left,
relevant_left_high`) and `all`, a blank line, then the ranking (`pairs_settled, pairs,
tau_expected, tau_low, tau_high`); text adds the runs, the open pairs and the advice; json
holds everything.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Literal

import click

from focal.evaluation.cli import numbers
from focal.evaluation.output.tables import dump_json, table_lines
from focal.pooling.cli.support import EXISTING_FILE, load_ranked_runs, reports_format_errors
from focal.pooling.forecast.model import TopicPool
from focal.pooling.forecast.ranking import Forecast, forecast, summary_sentence
from focal.pooling.records import RankedRun, natural_key

TOPIC_COLUMNS = (
    "topic", "judged", "relevant_found", "relevant_left_low", "relevant_left",
    "relevant_left_high",
)  # fmt: skip
RANKING_COLUMNS = ("pairs_settled", "pairs", "tau_expected", "tau_low", "tau_high")


@click.command("forecast")
@click.argument("qrels_path", metavar="QRELS_SO_FAR", type=EXISTING_FILE)
@click.argument("run_paths", metavar="RUN...", nargs=-1, required=True, type=EXISTING_FILE)
@click.option(
    "--pool",
    "pool_path",
    type=EXISTING_FILE,
    default=None,
    help="The pool judged from (default: the runs' top-n pool at the qrels' depth).",
)
@click.option(
    "--confidence",
    type=click.FloatRange(0.5, 1.0, min_open=True, max_open=True),
    default=0.9,
    show_default=True,
    help="Width of the intervals, and how sure a settled pair of runs is.",
)
@click.option("--seed", type=numbers.SEED, default=0, show_default=True, help="Seed of the draws.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "tsv", "json"]),
    default="text",
    show_default=True,
)
@reports_format_errors
def forecast_command(
    qrels_path: Path, run_paths: tuple[Path, ...], pool_path: Path | None, confidence: float,
    seed: int, output_format: str,
) -> None:  # fmt: skip
    """Relevant articles still unjudged per topic, and how far the runs' ranking may move."""
    judged = read_judged(qrels_path)
    ranked = load_ranked_runs(run_paths)
    pools = topic_pools(judged, ranked, pool_path)
    result = forecast(pools, [run.run_id for run in ranked], judged, confidence, seed)
    if output_format == "json":
        dump_json(asdict(result), sys.stdout)
    else:
        sys.stdout.writelines(forecast_lines(result, "tsv" if output_format == "tsv" else "text"))


def read_judged(path: Path) -> dict[str, dict[str, bool]]:
    """topic -> article -> relevant, from FOL or TREC qrels (TREC: grade < 0 not judged)."""
    from focal.evaluation.api import read_qrels
    from focal.evaluation.formats.trec import TrecQrels

    qrels = read_qrels(path)
    judged: dict[str, dict[str, bool]] = {}
    if isinstance(qrels, TrecQrels):
        rows = zip(qrels.topic.to_pylist(), qrels.doc.to_pylist(), qrels.grade.tolist(),
                   strict=True)  # fmt: skip
        for topic, doc, grade in rows:
            if grade >= 0:
                judged.setdefault(_text(topic), {})[_text(doc)] = grade > 0
        return judged
    return {t: {a: j.relevant for a, j in arts.items()} for t, arts in qrels.items()}


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def topic_pools(
    judged: Mapping[str, Mapping[str, bool]], runs: Sequence[RankedRun], pool_path: Path | None
) -> list[TopicPool]:
    """Every topic of the pool and the qrels, in natural order, with the runs' lists."""
    from focal.pooling.io import read_pool
    from focal.pooling.strategies import top_n_pool

    if pool_path is not None:
        pool = read_pool(pool_path)
    else:
        deepest = max((len(articles) for articles in judged.values()), default=1)
        pool = top_n_pool(runs, max(1, deepest))
    topics = sorted(set(pool.topics) | set(judged), key=natural_key)
    return [
        TopicPool.of(
            topic,
            [entry.article for entry in pool.topics[topic].articles]
            if topic in pool.topics
            else [],
            [run.topics.get(topic, ()) for run in runs],
        )
        for topic in topics
    ]


def forecast_lines(result: Forecast, output_format: Literal["text", "tsv"]) -> Iterator[str]:
    """The topics table, a blank line, the ranking table (and in text, the rest)."""
    rows = [
        [t.topic, t.judged, t.relevant_found, t.relevant_left_low, round(t.relevant_left, 1),
         t.relevant_left_high]
        for t in (*result.topics, result.total)
    ]  # fmt: skip
    yield from table_lines(TOPIC_COLUMNS, rows, output_format, digits=1)
    yield "\n"
    ranking = result.ranking
    yield from table_lines(
        RANKING_COLUMNS,
        [[ranking.pairs_settled, ranking.pairs, ranking.tau_expected, ranking.tau_low,
          ranking.tau_high]],
        output_format,
    )  # fmt: skip
    if output_format == "text":
        yield from _text_details(result)


def _text_details(result: Forecast) -> Iterator[str]:
    ranking = result.ranking
    yield "\n"
    runs = [
        [r.run, r.score_now, r.score_expected, r.rank_now, f"{r.rank_low}-{r.rank_high}"]
        for r in ranking.runs
    ]
    yield from table_lines(["run", "map_now", "map_expected", "rank_now", "rank_range"], runs,
                           "text")  # fmt: skip
    yield "\n"
    percent = round(result.confidence * 100)
    yield summary_sentence(result) + "\n"
    for first, second, probability in ranking.unsettled:
        yield f"  open: {first} vs {second} (order kept with probability {probability:.2f})\n"
    if ranking.stop_topics:
        shown = ", ".join(ranking.stop_topics[:10]) + (
            " …" if len(ranking.stop_topics) > 10 else ""
        )
        yield f"Topics that may stop (at {percent} % confidence): {shown}\n"
