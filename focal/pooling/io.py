"""Pool files, the in-article results file and group files.

Pool file (tab-separated, UTF-8, one pooled article a line, an optional first line starting with
`topic` as header):

    topic  article  first_round  best_rank  contributing_runs

`contributing_runs` is a comma-separated list of run ids in the order the runs were given.
Topics come in natural order (numbers numerically); within a topic the articles come in the
order the assessors will see them (`order_articles`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TextIO

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Result, Run
from focal.evaluation.formats.source import check_regular_file
from focal.pooling.records import Pool, PooledArticle, TopicPool, natural_key

if TYPE_CHECKING:  # the columns module loads numpy
    from focal.evaluation.formats.fol.columns import RunColumns

ArticleOrder = Literal["article", "random", "rank"]
POOL_COLUMNS = ("topic", "article", "first_round", "best_rank", "contributing_runs")
RESULT_COLUMNS = ("topic", "article", "run", "rank", "passage")


def order_articles(
    topic_pool: TopicPool, order: ArticleOrder = "article", seed: int = 0
) -> list[PooledArticle]:
    """The articles of a topic in the order assessors see them.

    `article`: by article id (natural order; the default, it hides system ranks from assessors).
    `rank`: pool rank, the order in which articles entered the pool.
    `random`: the article-id order shuffled by `random.Random(f"{seed}/{topic}")`, so one topic's
    order depends only on the seed, the topic and its articles (not on the other topics).
    """
    if order == "rank":
        return list(topic_pool.articles)
    by_id = sorted(topic_pool.articles, key=lambda entry: natural_key(entry.article))
    if order == "random":
        random.Random(f"{seed}/{topic_pool.topic}").shuffle(by_id)
    elif order != "article":
        raise ValueError(f"unknown order {order!r} (expected article, random or rank)")
    return by_id


def pool_lines(pool: Pool, order: ArticleOrder = "article", seed: int = 0) -> Iterator[str]:
    """The lines of a pool file, header first, each ending in a newline."""
    yield "\t".join(POOL_COLUMNS) + "\n"
    for topic_pool in pool.topics.values():
        for entry in order_articles(topic_pool, order, seed):
            runs = ",".join(entry.contributing_runs) or "-"
            rounds = f"{entry.first_round}\t{entry.best_rank}"
            yield f"{entry.topic}\t{entry.article}\t{rounds}\t{runs}\n"


def write_pool(pool: Pool, stream: TextIO, order: ArticleOrder = "article", seed: int = 0) -> None:
    """Write `pool` as a pool file to `stream`."""
    stream.writelines(pool_lines(pool, order, seed))


def read_pool(path: str | Path) -> Pool:
    """Read a pool file; raises `FormatError` with file and line on anything unexpected.

    Topics and articles keep the order of the file; depths are unknown (empty).
    """
    name = str(path)
    per_topic: dict[str, dict[str, PooledArticle]] = {}
    run_ids: dict[str, None] = {}
    for number, line in _text_lines(path):
        if number == 1 and line.startswith("topic"):
            continue
        if not line.strip():
            raise FormatError(name, number, "empty line in a pool file")
        entry = _pool_entry(line.split("\t"), name, number)
        articles = per_topic.setdefault(entry.topic, {})
        if entry.article in articles:
            raise FormatError(
                name, number, f"article {entry.article} of topic {entry.topic} is pooled twice"
            )
        articles[entry.article] = entry
        run_ids.update(dict.fromkeys(entry.contributing_runs))
    topics = {
        topic: TopicPool(topic, tuple(articles.values())) for topic, articles in per_topic.items()
    }
    return Pool(f"file {name}", tuple(run_ids), topics)


def _pool_entry(fields: list[str], name: str, number: int) -> PooledArticle:
    if len(fields) != len(POOL_COLUMNS):
        raise FormatError(
            name,
            number,
            f"expected {len(POOL_COLUMNS)} tab-separated fields "
            f"({' '.join(POOL_COLUMNS)}), found {len(fields)}",
        )
    topic, article, first_round, best_rank, runs = (field.strip() for field in fields)
    if not topic or not article:
        raise FormatError(name, number, "empty topic or article id")
    if not (first_round.isdigit() and best_rank.isdigit()):
        raise FormatError(name, number, "first_round and best_rank must be non-negative integers")
    contributors = () if runs == "-" else tuple(runs.split(","))
    if any(not run for run in contributors):
        raise FormatError(name, number, f"empty run id in contributing runs {runs!r}")
    if len(set(contributors)) != len(contributors):
        raise FormatError(name, number, f"a run is listed twice in contributing runs {runs!r}")
    return PooledArticle(topic, article, int(first_round), int(best_rank), contributors)


def _text_lines(path: str | Path) -> Iterator[tuple[int, str]]:
    """(line number, line without its end) of a UTF-8 file; bad UTF-8 is a FormatError."""
    try:
        check_regular_file(path)
        data = Path(path).read_bytes()
    except OSError as error:
        raise FormatError(path, None, f"cannot read the file ({error.strerror})") from error
    for number, raw in enumerate(data.splitlines(), start=1):
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise FormatError(path, number, f"not UTF-8 ({error.reason})") from None


@dataclass(frozen=True, slots=True)
class InArticleResult:
    """A result a run returned inside a pooled article, for the assessment screen to outline.

    `rank` is the result's 1-based position in the run's topic block.
    """

    topic: str
    article: str
    run_id: str
    rank: int
    result: Result

    @property
    def passage(self) -> str:
        """`offset:length` (FOL), `X` (a missing FOL result), an element path, or `-` (article)."""
        return _passage(self.result)


HitKey = tuple[int, tuple[int, int, str], int, int]  # topic, article, run (given order), rank
ResultRow = tuple[str, str, str, int, str]
"""A line of the in-article results file: topic, article, run id, rank, passage."""


def in_article_results(pool: Pool, runs: Iterable[Run]) -> list[InArticleResult]:
    """Every result of `runs` that lies in a pooled article (whole runs, not only pooled depth).

    Sorted by topic (pool order), article (natural order), run (given order), rank.
    """
    pooled = _pooled_sets(pool)
    found: list[tuple[HitKey, InArticleResult]] = []
    for run_index, run in enumerate(runs):
        for key, topic, rank, result in _record_hits(pooled, run_index, run):
            found.append((key, InArticleResult(topic, result.article, run.run_id, rank, result)))
    found.sort(key=lambda item: item[0])
    return [item for _, item in found]


def in_article_rows(pool: Pool, runs: Iterable[Run | RunColumns]) -> list[ResultRow]:
    """The lines of `in_article_results` as rows, for runs given as records or FOL columns.

    Columns give the same rows without a `Result` per line (the file's passage column is all a
    FOL result contributes): `focal pool --results` reads FOL runs that way.
    """
    pooled = _pooled_sets(pool)
    found: list[tuple[HitKey, ResultRow]] = []
    for run_index, run in enumerate(runs):
        if isinstance(run, Run):
            for key, topic, rank, result in _record_hits(pooled, run_index, run):
                row = (topic, result.article, run.run_id, rank, _passage(result))
                found.append((key, row))
        else:
            found.extend(_column_hits(pooled, run_index, run))
    found.sort(key=lambda item: item[0])
    return [row for _, row in found]


def _pooled_sets(pool: Pool) -> dict[str, tuple[int, frozenset[str]]]:
    """Topic -> (its index in pool order, its pooled articles)."""
    return {
        topic: (index, topic_pool.article_ids())
        for index, (topic, topic_pool) in enumerate(pool.topics.items())
    }


def _record_hits(
    pooled: dict[str, tuple[int, frozenset[str]]], run_index: int, run: Run
) -> Iterator[tuple[HitKey, str, int, Result]]:
    for topic, results in run.topics.items():
        topic_index, articles = pooled.get(topic, (0, frozenset()))
        if not articles:
            continue
        for rank, result in enumerate(results, start=1):
            if result.article in articles:
                key = (topic_index, natural_key(result.article), run_index, rank)
                yield key, topic, rank, result


def _column_hits(
    pooled: dict[str, tuple[int, frozenset[str]]], run_index: int, run: RunColumns
) -> Iterator[tuple[HitKey, ResultRow]]:
    import numpy as np  # only with columns, which already loaded it

    for topic, columns in run.topics.items():
        topic_index, articles = pooled.get(topic, (0, frozenset()))
        inside = [article in articles for article in columns.unique]
        if not any(inside):
            continue
        hits = np.flatnonzero(np.array(inside)[columns.codes])
        unique, keys = columns.unique, [natural_key(article) for article in columns.unique]
        for rank, code, start, length, missing in zip(
            (hits + 1).tolist(),
            columns.codes[hits].tolist(),
            columns.starts[hits].tolist(),
            columns.lengths[hits].tolist(),
            columns.missing[hits].tolist(),
            strict=True,
        ):
            passage = "X" if missing else f"{start}:{length}"
            row = (topic, unique[code], run.run_id, rank, passage)
            yield (topic_index, keys[code], run_index, rank), row


def _passage(result: Result) -> str:
    """`offset:length` (FOL), `X` (a missing FOL result), an element path, or `-` (article)."""
    if result.missing:
        return "X"
    if result.start is not None and result.length is not None:
        return f"{result.start}:{result.length}"
    return result.path or "-"


def in_article_lines(results: Sequence[InArticleResult | ResultRow]) -> Iterator[str]:
    """Lines of the in-article results file: `topic article run rank passage`, header first."""
    yield "\t".join(RESULT_COLUMNS) + "\n"
    for item in results:
        if isinstance(item, InArticleResult):
            item = (item.topic, item.article, item.run_id, item.rank, item.passage)
        topic, article, run_id, rank, passage = item
        yield f"{topic}\t{article}\t{run_id}\t{rank}\t{passage}\n"


def read_groups(path: str | Path) -> dict[str, str]:
    """Read a groups file: `run-id<TAB>group` lines (blank lines and `#` comments allowed)."""
    name = str(path)
    groups: dict[str, str] = {}
    for number, raw in _text_lines(path):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 2 or not all(field.strip() for field in fields):
            raise FormatError(name, number, "expected `run-id<TAB>group`")
        run_id, group = (field.strip() for field in fields)
        if run_id in groups:
            raise FormatError(name, number, f"run {run_id} is listed twice")
        groups[run_id] = group
    return groups
