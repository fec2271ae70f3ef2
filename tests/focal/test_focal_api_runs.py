"""`focal.evaluate` on runs as their callers give them: the names of a dict of runs kept (not the
files' run ids), an empty frame when qrels and run share no topic, and `NumQ` per topic as
ir_measures answers it."""

from __future__ import annotations

from pathlib import Path

import ir_measures

import focal


def files(folder: Path) -> tuple[str, str, str]:
    qrels, run, other = folder / "q", folder / "r", folder / "o"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n")
    run.write_text("1 Q0 a 0 1 fileid\n1 Q0 b 1 0.5 fileid\n2 Q0 c 0 1 fileid\n")
    other.write_text("7 Q0 a 0 1 otherid\n")
    return str(qrels), str(run), str(other)


def test_a_dict_of_runs_names_them(tmp_path: Path) -> None:
    qrels, run, _ = files(tmp_path)
    frame = focal.evaluate(qrels, {"MYNAME": run}, ["AP"])
    assert frame["run"].tolist() == ["MYNAME"]
    assert focal.evaluate(qrels, [run], ["AP"])["run"].tolist() == ["fileid"]  # (no name given)


def test_no_shared_topic_gives_an_empty_frame(tmp_path: Path) -> None:
    qrels, _, other = files(tmp_path)
    frame = focal.evaluate(qrels, {"X": other}, ["AP", "P@5"], per_topic=True, complete=False)
    assert frame.empty and list(frame.columns) == ["run", "measure", "topic", "value"]


def test_numq_per_topic_as_ir_measures(tmp_path: Path) -> None:
    qrels, run, _ = files(tmp_path)
    frame = focal.evaluate(qrels, {"r": run}, ["NumQ", "AP"], per_topic=True)
    ours = {row.topic: row.value for row in frame[frame["measure"] == "NumQ"].itertuples()}
    theirs = {
        metric.query_id: metric.value
        for metric in ir_measures.iter_calc(
            [ir_measures.NumQ], ir_measures.read_trec_qrels(qrels), ir_measures.read_trec_run(run)
        )
    }
    assert ours == theirs and len(ours) == 2
