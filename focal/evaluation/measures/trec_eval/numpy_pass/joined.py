"""A file's topic groups as the first look finds them (`Topics`), and the two files' groups
joined in trec_eval's order (`join`), on the topic ids' 64-bit words rather than one bytes
object a group: on 1,000,000 topics a file's groups take 16 MiB, where a list of their ids and
the sets and dicts of the join took about 300 (docs/performance.md, "The numpy pass").

Ids are compared as `fields.words` reads them: zero past an id's end, and no id holds a zero
byte, so that equal words are equal ids, and the words byte-swapped to big-endian compare, word
after word, as trec_eval's `strcmp` compares the ids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from focal.evaluation.measures.trec_eval.numpy_pass import fields

if TYPE_CHECKING:
    from focal.evaluation.measures.trec_eval.numpy_pass.fields import Columns, Ints, Words


class Topics:
    """A file's groups in file order: each one's topic id (`words`: little-endian, a column a
    word of the longest id) and where it starts in the file (`starts`)."""

    __slots__ = ("starts", "words")

    def __init__(self, words: Columns, starts: Ints) -> None:
        self.words, self.starts = words, starts

    def __len__(self) -> int:
        return len(self.starts)

    def texts(self, groups: Ints | None = None) -> list[bytes]:
        """The topic ids of `groups` (None: every group), in that order."""
        if groups is None:
            groups = np.arange(len(self), dtype=np.int64)
        if not self.words:
            return [b""] * len(groups)
        return fields.texts(self.words, groups)


class TopicParts:
    """`Topics` as the look finds them, a chunk at a time (`add`), and the last group's id, so
    that a chunk whose first line continues that group opens no new one."""

    def __init__(self) -> None:
        self._words: list[Columns] = []
        self._starts: list[Ints] = []
        self.last: bytes | None = None

    def add(self, words: Columns, starts: Ints) -> None:
        """Groups that open in a chunk (their words, their starts in the file)."""
        if len(starts):
            self._words.append(words)
            self._starts.append(starts)
            self.last = fields.texts(words, np.array([len(starts) - 1]))[0]

    def topics(self) -> Topics:
        width = max((len(words) for words in self._words), default=0)
        columns = [np.concatenate([_column(words, k) for words in self._words])
                   for k in range(width)]  # fmt: skip
        starts = np.concatenate(self._starts) if self._starts else np.zeros(0, dtype=np.int64)
        return Topics(columns, starts.astype(np.int64, copy=False))


def _column(words: Columns, k: int) -> Words:
    """Word k of a chunk's ids: zero where the chunk's ids have fewer words."""
    if k < len(words):
        return words[k]
    return np.zeros(len(words[0]), dtype=np.uint64)


class Joined:
    """The qrels groups in their ids' byte order (`order`), each one's run group or -1
    (`match`), the run topics the qrels lack (byte order), and whether both files are grouped
    (no id in two groups of a file; otherwise order and match are empty)."""

    __slots__ = ("grouped", "match", "order", "unknown")

    def __init__(self, order: Ints, match: Ints, unknown: list[bytes], grouped: bool) -> None:
        self.order, self.match, self.unknown, self.grouped = order, match, unknown, grouped


def join(qrels: Topics, run: Topics) -> Joined:
    """The two files' groups in trec_eval's order (`Joined`): both files' ids sorted together
    (byte order, a qrels group before a run group of the same id), then read off neighbours."""
    count, width = len(qrels), max(len(qrels.words), len(run.words), 1)
    keys = [np.concatenate((_column(qrels.words or [np.zeros(count, np.uint64)], k),
                            _column(run.words or [np.zeros(len(run), np.uint64)], k)))
            .byteswap() for k in range(width)]  # fmt: skip
    # (the last key sorts first; a stable sort: a qrels group, listed first, comes before the
    # run group of its id)
    order = np.lexsort(keys[::-1])
    ran = order >= count
    same = np.ones(max(len(order) - 1, 0), dtype=bool)
    for key in keys:
        ordered = key[order]
        same &= ordered[1:] == ordered[:-1]
    if np.any(same & (ran[1:] == ran[:-1])):  # an id in two groups of one file
        known = set(qrels.texts())
        return Joined(np.zeros(0, np.int64), np.zeros(0, np.int64),
                      sorted({t for t in run.texts() if t not in known}), False)  # fmt: skip
    paired = np.zeros(len(order), dtype=bool)  # a qrels group followed by its run group
    paired[:-1] = same & ~ran[:-1]
    answered = np.zeros(len(order), dtype=bool)  # a run group after its qrels group
    answered[1:] = paired[:-1]
    following = np.append(order[1:], 0)[: len(order)]  # (each sorted group's next one)
    match = np.where(paired[~ran], following[~ran] - count, -1)
    unknown = order[ran & ~answered] - count
    return Joined(order[~ran].astype(np.int64), match.astype(np.int64), run.texts(unknown), True)
