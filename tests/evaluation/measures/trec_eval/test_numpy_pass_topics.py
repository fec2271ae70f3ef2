"""The numpy pass's topic groups as words (`numpy_pass.joined`): the join of two files' groups
on the ids' words is what sets, dicts and sorted bytes give (trec_eval's `strcmp` order), for
ids of one to three words, ids sharing their first eight bytes or differing in their last, and
files whose topics come in more than one group; and a look at a file read a few bytes at a time
finds the same groups as one read whole."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from focal.evaluation.measures.trec_eval.numpy_pass import fields, look
from focal.evaluation.measures.trec_eval.numpy_pass.joined import Topics, join

from .test_plain_pass import write


def as_topics(ids: list[bytes]) -> Topics:
    """`Topics` of groups with these ids, read as the look reads them."""
    data = np.frombuffer(b" ".join(ids) + b" " + bytes(fields.PAD), dtype=np.uint8).copy()
    lengths = np.array([len(i) for i in ids], dtype=np.int64)
    starts = np.cumsum(lengths + 1) - lengths - 1
    words = fields.words(fields.raw_words(data), starts, lengths, order=False) if ids else []
    return Topics(words, np.arange(len(ids), dtype=np.int64) * 100)


def reference(qrels: list[bytes], run: list[bytes]) -> tuple[list[int], list[int], list[bytes],
                                                               bool]:  # fmt: skip
    """The join as the pass first wrote it, with Python's own containers."""
    grouped = len(set(qrels)) == len(qrels) and len(set(run)) == len(run)
    known = set(qrels)
    unknown = sorted({t for t in run if t not in known})
    if not grouped:
        return [], [], unknown, False
    order = sorted(range(len(qrels)), key=qrels.__getitem__)
    at = {topic: i for i, topic in enumerate(run)}
    return order, [at.get(qrels[i], -1) for i in order], unknown, True


@pytest.mark.parametrize("seed", range(40))
def test_the_join_on_words_is_the_join_on_bytes(seed: int) -> None:
    rng = random.Random(seed)
    stems = [b"", b"topic-00", b"topic-number-", b"q", b"Z"]
    pool = sorted({rng.choice(stems) + str(rng.randint(0, 30)).encode() + rng.choice([b"", b"x"])
                   for _ in range(60)})  # fmt: skip
    qrels = rng.sample(pool, rng.randint(0, len(pool)))
    run = rng.sample(pool, rng.randint(0, len(pool)))
    if seed % 4 == 0 and qrels:  # a topic in two groups of one file
        qrels.append(rng.choice(qrels))
    if seed % 4 == 1 and run:
        run.insert(rng.randint(0, len(run)), rng.choice(run))
    joined = join(as_topics(qrels), as_topics(run))
    order, match, unknown, grouped = reference(qrels, run)
    assert joined.grouped == grouped
    assert joined.unknown == unknown
    assert joined.order.tolist() == order and joined.match.tolist() == match


def test_a_look_a_few_bytes_at_a_time_finds_the_groups_of_one_read(tmp_path: Path) -> None:
    """Topic ids of one to three words, a group cut by every chunk's end, one topic in two
    groups: the groups (ids and starts) do not depend on the chunk's size."""
    topics = ["t", "topic-number-0001", "topic-number-0002", "topic-number-00010", "t",
              "a-very-long-topic-id-of-three-words"]  # fmt: skip
    qrels = [f"{t} 0 d{d} {d % 3}\n" for t in topics for d in range(5)]
    paths = write(tmp_path, qrels, ["1 Q0 d 1 1 r\n"], "grouped", 0)
    found = []
    for chunk in (24, 40, 97, 1 << 20):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(look, "CHUNK", chunk)
            index = look.look(paths[0], look.QRELS_FIELDS, 0)
        assert index is not None
        found.append((index.topics.texts(), index.topics.starts.tolist()))
    assert all(answer == found[0] for answer in found)
    assert found[0][0] == [t.encode() for t in topics]


def test_files_without_groups_join_to_nothing() -> None:
    """Both files emptied under the look (no group at all): nothing to evaluate, no error."""
    for qrels, run in [([], []), ([b"1"], []), ([], [b"1"])]:
        joined = join(as_topics(qrels), as_topics(run))
        assert (joined.order.tolist(), joined.match.tolist()) == reference(qrels, run)[:2]
        assert joined.unknown == run and joined.grouped
