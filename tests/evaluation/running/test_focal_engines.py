"""What an evaluation derives from its qrels travels with them: the focused engine's index is
built once per `PreparedQrels`, whichever thread asks first, kept by those qrels alone (no
table of a module shared by every evaluation), and carried when they are pickled to a worker."""

from __future__ import annotations

import pickle
import threading
from pathlib import Path

from focal.evaluation.formats.fol.qrels import read_qrels, read_qrels_columns
from focal.evaluation.measures.engines.focused_run import JudgedArticles, judged_articles
from focal.evaluation.measures.prepared import PreparedQrels
from focal.evaluation.measures.records import Settings
from focal.evaluation.running.focal_engines import evaluate_files, evaluate_qrels_file

QRELS = "1 Q0 100 50 1000 10 10:50\n1 Q0 200 0 800\n2 Q0 300 20 500 0 0:20\n"
RUN = "1 Q0 100 1 0.9 probe 0 100\n1 Q0 200 2 0.8 probe 0 300\n2 Q0 300 1 0.7 probe 0 40\n"


def prepared(tmp_path: Path) -> PreparedQrels:
    path = tmp_path / "q.qrels"
    path.write_text(QRELS, encoding="utf-8")
    return PreparedQrels(*read_qrels_columns(str(path)))


def test_the_index_is_built_once_whichever_thread_asks_first(tmp_path: Path) -> None:
    qrels = prepared(tmp_path)
    builds: list[int] = []

    def build(given: PreparedQrels) -> JudgedArticles | None:
        builds.append(1)
        return judged_articles(PreparedQrels(given.qrels))  # a fresh one: built there

    found: list[object] = []
    start = threading.Barrier(4)

    def ask() -> None:
        start.wait(timeout=60)
        found.append(qrels.derived("index", build))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1 and len(found) == 4
    assert all(index is found[0] for index in found) and found[0] is not None


def test_each_qrels_keep_their_own_index_and_carry_it_when_pickled(tmp_path: Path) -> None:
    first, second = prepared(tmp_path), prepared(tmp_path)
    index = judged_articles(first)
    assert index is not None and judged_articles(first) is index
    assert judged_articles(second) is not index
    copy = pickle.loads(pickle.dumps(first))
    carried = copy.derived("judged_articles", lambda _: None)
    assert isinstance(carried, JudgedArticles) and carried.topics == index.topics


def test_a_qrels_file_is_evaluated_as_its_prepared_qrels(tmp_path: Path) -> None:
    path = tmp_path / "q.qrels"
    path.write_text(QRELS, encoding="utf-8")
    run = tmp_path / "r.run"
    run.write_text(RUN, encoding="utf-8")
    settings = Settings("focused")
    [evaluation] = evaluate_qrels_file(str(path), settings, [str(run)], 1)
    records = PreparedQrels(read_qrels(str(path)))  # records: the index built from their text
    [expected] = evaluate_files(records, settings, [str(run)], 1)
    assert evaluation.run_id == "probe" and [t.topic for t in evaluation.topics] == ["1", "2"]
    assert [t.values for t in evaluation.topics] == [t.values for t in expected.topics]
