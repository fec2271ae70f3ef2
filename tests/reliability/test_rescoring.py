"""Re-scoring on reduced judgements (`focal.reliability.rescoring`) gives, to the last bit, the
scores of the topic-by-topic path (`focal.reliability.scores.score_matrix`) on generated campaigns,
for the focused and thorough iP measures and the article measures MAP and P@k: article ids
of every form (`d3-17`, plain numbers), several passages per article, results past passages and
overlapping thorough results, a topic without relevant articles, on sampled, depth-restricted
and emptied judgements."""

from __future__ import annotations

import numpy as np
import pytest

from focal.evaluation.formats.records import Judgement, Result, Run
from focal.reliability.judgements import restrict_to, sample_judgements
from focal.reliability.rescoring import rescorer
from focal.reliability.scores import score_matrix


def campaign(seed: int, thorough: bool) -> tuple[dict[str, dict[str, Judgement]], list[Run]]:
    rng = np.random.default_rng(seed)
    qrels: dict[str, dict[str, Judgement]] = {}
    articles = {}
    for t in range(1, 7):
        topic = str(t)
        names = [f"d{t}-{a}" if a % 3 else str(1000 * t + a) for a in range(24)]
        articles[topic] = names
        judged: dict[str, Judgement] = {}
        for a, name in enumerate(names[:18]):
            passages: tuple[tuple[int, int], ...] = ()
            if a < 9 and not (t == 6 and a > 0) and t != 4:  # topic 6: one relevant, 4: none
                first = int(rng.integers(0, 300))
                passages = ((first, first + 150),)
                if a % 2:
                    passages += ((first + 400, first + 400 + int(rng.integers(10, 90))),)
            relevant = sum(e - s for s, e in passages)
            judged[name] = Judgement(topic, name, relevant, 2000, None, passages, 0)
        qrels[topic] = judged
    runs = []
    for r in range(5):
        topics = {}
        for topic, names in articles.items():
            if topic == "5" and r == 2:
                continue  # a topic this run does not answer
            chosen = rng.permutation(len(names))[:12].tolist()
            results, rank = [], 1
            for index in chosen:
                for _ in range(2 if thorough else 1):
                    start = int(rng.integers(0, 700))
                    length = int(rng.integers(50, 400))
                    results.append(
                        Result(topic, names[index], rank, 1 / rank, 0, start=start, length=length)
                    )
                    rank += 1
                    if not thorough:
                        break
            topics[topic] = results
        runs.append(Run(f"run-{r}", f"run-{r}.txt", "fol", topics))
    return qrels, runs


@pytest.mark.parametrize(
    ("task", "measure"),
    [(task, measure) for task in ("focused", "thorough")
     for measure in ("AiP", "iP[0.01]", "iP[0.10]")]
    + [("articles", "MAP"), ("articles", "P@5"), ("articles", "P@20")],
)  # fmt: skip
def test_reduced_judgements_score_as_topic_by_topic(task: str, measure: str) -> None:
    qrels, runs = campaign(3, thorough=task == "thorough")
    topics = tuple(qrels)
    fast = rescorer(qrels, runs, task, measure, topics)
    assert fast is not None
    full = fast.score(qrels)
    assert full is not None
    reference = score_matrix(qrels, runs, task, measure, topics)
    assert np.array_equal(full.values, reference.values) and full.runs == reference.runs
    assert reference.values.any()
    trials = [
        sample_judgements(qrels, fraction, np.random.default_rng([1, n]), population)
        for n, (fraction, population) in enumerate(
            [(0.8, "relevant"), (0.4, "relevant"), (0.2, "relevant"), (0.5, "judged")]
        )
    ]
    trials.append(restrict_to(qrels, {t: frozenset(list(j)[::2]) for t, j in qrels.items()}))
    trials.append({t: ({} if t == "2" else j) for t, j in qrels.items()})  # a topic emptied
    trials.append({t: j for t, j in qrels.items() if t != "3"})  # a topic gone
    changed = 0
    for trial in trials:
        ours = fast.score(trial)
        assert ours is not None
        expected = score_matrix(trial, runs, task, measure, topics)
        assert np.array_equal(ours.values, expected.values)
        changed += not np.array_equal(expected.values, reference.values)
    assert changed >= 5  # the trials do move the scores


def test_what_is_not_covered_falls_back() -> None:
    qrels, runs = campaign(4, thorough=False)
    assert rescorer(qrels, runs, "ric", "AgP", tuple(qrels)) is None
    assert rescorer(qrels, runs, "focused", "char_prec", tuple(qrels)) is None
    assert rescorer(qrels, runs, "articles", "nDCG@10", tuple(qrels)) is None
    fast = rescorer(qrels, runs, "focused", "AiP", tuple(qrels))
    assert fast is not None
    topic = qrels["1"]
    name = next(a for a, j in topic.items() if j.rel_chars > 0)
    altered = Judgement("1", name, 10, 2000, None, ((0, 10),), 0)
    assert fast.score({**qrels, "1": {**topic, name: altered}}) is None
    not_relevant = next(a for a, j in topic.items() if j.rel_chars == 0)
    made_relevant = Judgement("1", not_relevant, 10, 2000, None, ((0, 10),), 0)
    assert fast.score({**qrels, "1": {**topic, not_relevant: made_relevant}}) is None
