"""`focal.evaluate` from several threads at once: every input travels in values (options,
prepared qrels and their indexes), so eight calls started together on eight different qrels
each give exactly what one call alone gives for its qrels, whichever engine serves them."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import focal

THREADS = 8
ARTICLES = [str(100 + i) for i in range(THREADS)]  # plain numbers: the whole-run focused engine
TOPICS = ("1", "2")


def relevant(qrels: int, topic: str) -> str:
    """The one relevant article of `topic` in the qrels numbered `qrels`: another for each."""
    return ARTICLES[qrels if topic == "1" else THREADS - 1 - qrels]


def trec_inputs(tmp_path: Path, qrels: int) -> tuple[Any, Any, str]:
    """Plain dicts, as pytrec_eval takes them: trec_eval's engine in memory."""
    judged = {t: {a: int(a == relevant(qrels, t)) for a in ARTICLES} for t in TOPICS}
    run = {t: {a: float(THREADS - rank) for rank, a in enumerate(ARTICLES)} for t in TOPICS}
    return judged, run, "articles"


def trec_files(tmp_path: Path, qrels: int) -> tuple[Any, Any, str]:
    """TREC qrels and run files: trec_eval's engine reading files."""
    path = tmp_path / f"trec{qrels}.qrels"
    lines = [f"{t} 0 {a} {int(a == relevant(qrels, t))}\n" for t in TOPICS for a in ARTICLES]
    path.write_text("".join(lines), encoding="utf-8")
    run = tmp_path / "trec.run"
    ranked = [
        f"{t} Q0 {a} {rank} {THREADS - rank} probe\n"
        for t in TOPICS
        for rank, a in enumerate(ARTICLES, 1)
    ]
    run.write_text("".join(ranked), encoding="utf-8")
    return str(path), str(run), "articles"


def fol_files(tmp_path: Path, qrels: int) -> tuple[Any, Any, str]:
    """FOL qrels and a FOL run: the whole-run focused engine and its index of the qrels."""
    path = tmp_path / f"fol{qrels}.qrels"
    lines = [
        f"{t} Q0 {a} 50 1000 10 10:50\n" if a == relevant(qrels, t) else f"{t} Q0 {a} 0 800\n"
        for t in TOPICS
        for a in ARTICLES
    ]
    path.write_text("".join(lines), encoding="utf-8")
    run = tmp_path / "fol.run"
    ranked = [
        f"{t} Q0 {a} {rank} {THREADS - rank} probe 0 100\n"
        for t in TOPICS
        for rank, a in enumerate(ARTICLES, 1)
    ]
    run.write_text("".join(ranked), encoding="utf-8")
    return str(path), str(run), "focused"


Inputs = Callable[[Path, int], tuple[Any, Any, str]]


@pytest.mark.parametrize("inputs", [trec_inputs, trec_files, fol_files], ids=lambda f: f.__name__)
def test_eight_threads_at_once_give_each_the_answer_of_one_call(
    tmp_path: Path, inputs: Inputs
) -> None:
    calls = [inputs(tmp_path, qrels) for qrels in range(THREADS)]

    def evaluate(call: tuple[Any, Any, str]) -> list[dict[str, Any]]:
        qrels, run, task = call
        frame = focal.evaluate(qrels, run, task=task, per_topic=True)
        records: list[dict[str, Any]] = frame.to_dict("records")
        return records

    alone = [evaluate(call) for call in calls]
    assert len({repr(answer) for answer in alone}) == THREADS  # each qrels its own answer
    together: dict[int, list[dict[str, Any]]] = {}
    failures: list[BaseException] = []
    start = threading.Barrier(THREADS)

    def worker(index: int) -> None:
        try:
            start.wait(timeout=120)  # every thread is running before any evaluates
            together[index] = evaluate(calls[index])
        except BaseException as error:  # reported below, with the thread's index
            failures.append(error)
            start.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    assert [together[index] for index in range(THREADS)] == alone
