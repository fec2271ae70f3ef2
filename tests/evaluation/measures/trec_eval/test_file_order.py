"""A run whose topics come in another order than their ids' byte order (1, 2, 10 is not: "10"
sorts before "2"), each topic's lines together with scores falling, is evaluated in the file's
order and its topics' values put in trec_eval's order afterwards (`trec_run.evaluate_trec`); a
run written in trec_eval's order moves nothing. Both must print exactly what the same run
sorted into trec_eval's order prints: every row, per topic and `all`, byte for byte, whatever
the options."""

from __future__ import annotations

import io
import random
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from focal.evaluation.cli.trec_eval.command import main

TOPICS = ["1", "2", "10", "3b", "21", "100"]
DOCS = [f"d{i}" for i in range(12)] + ["D5", "d10a", "x"]


def printed(folder: Path, qrels: str, run: str, options: list[str]) -> tuple[int, str, str]:
    """`focal trec_eval`'s exit code, output and errors (some files stop trec_eval too: a first
    topic with only negative judgements)."""
    (folder / "q").write_text(qrels)
    (folder / "r").write_text(run)
    out, err = io.StringIO(), io.StringIO()
    code = main([*options, str(folder / "q"), str(folder / "r")], out, err)
    return code, out.getvalue(), err.getvalue()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.randoms(use_true_random=False))
def test_topics_in_the_files_order_print_what_trec_eval_order_prints(rng: random.Random) -> None:
    qrels, blocks = [], {}
    for topic in rng.sample(TOPICS, rng.randint(1, len(TOPICS))):
        for doc in rng.sample(DOCS, rng.randint(1, 8)):
            qrels.append(f"{topic} 0 {doc} {rng.choice([-1, 0, 1, 1, 2])}\n")
        if rng.random() < 0.9:  # scores from few values: ties
            scored = [(doc, rng.choice([0.5, 1.0, 1.0, 2.0, 3.0])) for doc in
                      rng.sample(DOCS, rng.randint(1, 10))]  # fmt: skip
            blocks[topic] = scored
    if not blocks:
        return
    # trec_eval's order: topics by bytes, score descending, then document id descending
    ranked = {t: sorted(s, key=lambda ds: (ds[1], ds[0].encode()), reverse=True)
              for t, s in blocks.items()}  # fmt: skip
    sorted_run = "".join(f"{t} Q0 {d} {i} {s} r\n" for t in sorted(blocks, key=str.encode)
                         for i, (d, s) in enumerate(ranked[t]))  # fmt: skip
    # the file's order: topics shuffled, each topic's scores falling, its ties in any order
    shuffled = list(blocks)
    rng.shuffle(shuffled)
    file_run = ""
    for topic in shuffled:
        lines = sorted(blocks[topic], key=lambda ds: ds[1], reverse=True)
        rng.shuffle(lines)
        lines.sort(key=lambda ds: ds[1], reverse=True)  # (stable: ties stay shuffled)
        file_run += "".join(f"{topic} Q0 {d} {i} {s} r\n" for i, (d, s) in enumerate(lines))
    options = ["-m", rng.choice(["all_trec", "official", "ndcg_cut.3,5", "P.1,2"])]
    options += [flag for flag in ("-q", "-c", "-J") if rng.random() < 0.4]
    options += ["-M", str(rng.randint(1, 5))] if rng.random() < 0.3 else []
    options += ["-l", "2"] if rng.random() < 0.2 else []
    with tempfile.TemporaryDirectory() as folder:
        want = printed(Path(folder), "".join(qrels), sorted_run, options)
        got = printed(Path(folder), "".join(qrels), file_run, options)
    assert got == want, options
    assert want[0] != 0 or want[1].count("\n") > 1  # (an output to compare, most of the time)
