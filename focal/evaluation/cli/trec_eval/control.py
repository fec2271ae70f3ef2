"""trec_eval's loop over topics and where it stops (`trec_eval.c`), for `focal trec_eval`.

trec_eval evaluates its topics one at a time, in id order, printing each topic's `-q` rows as it
goes, and stops with exit code 4 at the first topic it cannot evaluate; the rows printed before
stay on stdout (docs/trec_eval.md, "Control flow"). The topics it evaluates are the qrels topics
in 10.0 (a missing one stops it without `-c`) and the topics both files share in 9.0.7. A topic
stops it when its qrels judge a document twice or when a document comes twice among its first
`-M` ranked results; a duplicate anywhere else (in a topic it never evaluates, or below the
`-M` cut) is never looked at. `checked` finds the stop and gives the inputs without the rows
trec_eval never reads, so that the engine evaluates the rest as trec_eval does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from focal.evaluation.cli.trec_eval.stops import judged_twice, missing_topic, retrieved_twice
from focal.evaluation.formats.arrow import binary_array
from focal.evaluation.formats.trec import TrecQrels, TrecRun
from focal.evaluation.measures.trec_eval.engine.order import c_ranking
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation


@dataclass(frozen=True)
class Checked:
    """The inputs as trec_eval evaluates them, and where (before which topic) it stops."""

    qrels: TrecQrels
    run: TrecRun
    stop_topic: str | None = None
    message: str = ""


def checked(qrels: TrecQrels, run: TrecRun, version: int, complete: bool,
            max_docs: int | None, only_topic: str | None = None) -> Checked:  # fmt: skip
    """Where trec_eval `version` stops on these files, and the files without the topics it
    refuses and without the duplicates below the `-M` cut (which it never sees)."""
    judged = _pairs(qrels.topic, qrels.doc)
    retrieved = _pairs(run.topic, run.doc)
    scores = run.score.astype(np.float32).astype(np.float64) if version == 9 else run.score
    qrels_twice = {pair[0]: pair[1] for pair, count in Counter(judged).items() if count > 1}
    by_topic: dict[bytes, list[int]] = {}
    for row, (topic, _) in enumerate(retrieved):
        by_topic.setdefault(topic, []).append(row)
    run_twice, dropped = _run_duplicates(retrieved, scores.tolist(), by_topic, max_docs)
    qrels_topics = sorted({t for t, _ in judged})
    evaluated = [t for t in qrels_topics if version == 10 or t in by_topic]
    if only_topic is not None:
        evaluated = [t for t in evaluated if t.decode(errors="replace") == only_topic]
    stop, message = None, ""
    for topic in evaluated:
        shown = topic.decode(errors="replace")
        if version == 10 and not complete and topic not in by_topic:
            stop, message = topic, missing_topic(shown)
        elif topic in qrels_twice:
            stop, message = topic, judged_twice(qrels.file, _shown(qrels_twice[topic]), shown)
        elif topic in run_twice:
            stop, message = topic, retrieved_twice(run.file, _shown(run_twice[topic]), shown)
        if stop is not None:
            break
    qrels, keep_qrels = _kept_qrels(qrels, judged, set(qrels_twice) - set(evaluated))
    keep_run = [i for i, pair in enumerate(retrieved)
                if pair[0] not in run_twice and i not in dropped]  # fmt: skip
    return Checked(
        _take_qrels(qrels, keep_qrels), _take_run(run, keep_run),
        None if stop is None else stop.decode(errors="replace"), message,
    )  # fmt: skip


def _kept_qrels(
    qrels: TrecQrels, judged: list[tuple[bytes, bytes]], unevaluated: set[bytes]
) -> tuple[TrecQrels, list[int]]:
    """The qrels rows kept: none of a topic with a pair judged twice that trec_eval evaluates
    (it stops there), every line of one it never evaluates (`unevaluated`; 9.x: a topic the
    run lacks), which counts only by its lines (num_q and, with -c, num_rel count each line, a
    repeated pair twice, as 9.0.7 does): its repeated pairs are kept as lines of their own,
    under ids no run line can hold (a newline and the line's number)."""
    twice = {topic for (topic, _), count in Counter(judged).items() if count > 1}
    keep = [i for i, (topic, _) in enumerate(judged) if topic not in twice - unevaluated]
    apart = twice & unevaluated
    if apart:
        docs = [doc + b"\n%d" % i if topic in apart else doc
                for i, (topic, doc) in enumerate(judged)]  # fmt: skip
        qrels = replace(qrels, doc=binary_array(docs))
    return qrels, keep


def _run_duplicates(
    retrieved: list[tuple[bytes, bytes]], scores: list[float], by_topic: dict[bytes, list[int]],
    max_docs: int | None,
) -> tuple[dict[bytes, bytes], set[int]]:  # fmt: skip
    """Per topic, a document twice among its first `-M` in trec_eval's ranking (topic ->
    document); and the rows of duplicates below the cut, which trec_eval never reads (one copy
    of each document is kept, for the topic's sake)."""
    twice_in: dict[bytes, bytes] = {}
    dropped: set[int] = set()
    for topic, rows in by_topic.items():
        if len({retrieved[r][1] for r in rows}) == len(rows):
            continue
        rows = sorted(rows, key=lambda r: retrieved[r][1])  # (trec_eval's reader sorts by id)
        order = c_ranking([retrieved[r][1] for r in rows], [scores[r] for r in rows])
        placed = [rows[i] for i in order]
        kept = placed if max_docs is None else placed[:max_docs]
        counted = Counter(retrieved[r][1] for r in kept)
        twice = [doc for doc, count in counted.items() if count > 1]
        if twice:
            twice_in[topic] = twice[0]
            continue
        seen = set(counted)
        for r in placed[len(kept) :]:
            if retrieved[r][1] in seen:
                dropped.add(r)
            seen.add(retrieved[r][1])
    return twice_in, dropped


def _shown(doc: bytes) -> str:
    return doc.decode(errors="replace")


def _pairs(topic: object, doc: object) -> list[tuple[bytes, bytes]]:
    return list(zip(topic.to_pylist(), doc.to_pylist(), strict=True))  # type: ignore[attr-defined]


def _take_qrels(qrels: TrecQrels, rows: list[int]) -> TrecQrels:
    topic, doc = qrels.topic.to_pylist(), qrels.doc.to_pylist()
    return TrecQrels(
        qrels.file, binary_array([topic[i] for i in rows]), binary_array([doc[i] for i in rows]),
        qrels.grade[np.array(rows, dtype=np.int64)],
    )  # fmt: skip


def _take_run(run: TrecRun, rows: list[int]) -> TrecRun:
    topic, doc = run.topic.to_pylist(), run.doc.to_pylist()
    return TrecRun(
        run.run_id, run.file, binary_array([topic[i] for i in rows]),
        binary_array([doc[i] for i in rows]), run.score[np.array(rows, dtype=np.int64)],
        list(run.warnings),
    )  # fmt: skip


def rows_before(evaluation: TrecEvaluation, topic: str) -> TrecEvaluation:
    """The evaluation cut to the topics trec_eval prints before it stops at `topic` (topics in
    byte order, as it loops over them)."""
    stop = topic.encode()
    count = sum(1 for t in evaluation.topics if t.encode() < stop)
    return replace(
        evaluation, topics=evaluation.topics[:count],
        values={name: column[:count] for name, column in evaluation.values.items()},
        answered=evaluation.answered[:count],
    )  # fmt: skip
