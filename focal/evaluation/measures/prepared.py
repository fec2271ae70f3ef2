"""Qrels prepared for evaluating many runs: each topic's relevant text and article judgements
indexed once, when first asked for.

The qrels come as `Judgement` records, or as the columns of the qrels fast path
(`focal.evaluation.formats.fol.qrels_fast.QrelsColumns`), from which the whole-run focused
evaluation indexes every topic at once (`focal.evaluation.measures.passages.qrels_arrays`) without
the records: those are built from the columns only if something asks for them (a run evaluated topic
by topic, another task), once, under a lock, as runs may be evaluated on threads.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from focal.evaluation.formats.fol.qrels_fast import QrelsColumns, judgements_of
from focal.evaluation.formats.records import Judgement
from focal.evaluation.measures.articles import topic as articles
from focal.evaluation.measures.passages.text import RelevantText

Qrels = Mapping[str, Mapping[str, Judgement]]
Derived = TypeVar("Derived")


class PreparedQrels:
    """Qrels with each topic's relevant text indexed once, for evaluating many runs."""

    def __init__(self, qrels: Qrels | None, columns: QrelsColumns | None = None) -> None:
        if qrels is None and columns is None:
            raise ValueError("PreparedQrels needs the qrels, as records or as columns")
        self._qrels = qrels
        self._building = threading.Lock()
        self.columns = columns  # the same judgements as columns, when the fast path read them
        self._text: dict[str, RelevantText] = {}
        self._articles: dict[str, articles.ArticleJudgements] = {}
        self._totals: tuple[int, int] | None = None
        self._derived: dict[str, Any] = {}
        self._deriving = threading.Lock()

    def __getstate__(self) -> dict[str, object]:
        """What a spawned worker process unpickles (`focal.evaluation.processes`): everything
        indexed so far, without the locks, which each process makes anew."""
        locks = ("_building", "_deriving")
        return {name: value for name, value in vars(self).items() if name not in locks}

    def __setstate__(self, state: dict[str, object]) -> None:
        vars(self).update(state)
        self._building, self._deriving = threading.Lock(), threading.Lock()

    def derived(self, name: str, build: Callable[[PreparedQrels], Derived]) -> Derived:
        """What `build` makes of these qrels (an engine's index of them), built once, under a
        lock, and kept here: an index travels with its qrels, to threads and workers, rather
        than in a table of some module that every evaluation of the process would share."""
        with self._deriving:
            if name not in self._derived:
                self._derived[name] = build(self)
            found: Derived = self._derived[name]
            return found

    @property
    def qrels(self) -> Qrels:
        """topic -> article -> Judgement (built from the columns on first use, once)."""
        if self._qrels is None:
            with self._building:
                if self._qrels is None:
                    assert self.columns is not None
                    self._qrels = judgements_of(self.columns)
        return self._qrels

    def text(self, topic: str) -> RelevantText:
        if topic not in self._text:
            self._text[topic] = RelevantText(self.qrels[topic])
        return self._text[topic]

    def relevant_totals(self) -> tuple[int, int]:
        """(relevant articles, relevant characters) summed over every qrels topic."""
        if self._totals is None:
            relevant = [
                j.rel_chars for t in self.qrels.values() for j in t.values() if j.rel_chars > 0
            ]
            self._totals = (len(relevant), sum(relevant))
        return self._totals

    def article_judgements(self, topic: str) -> articles.ArticleJudgements:
        if topic not in self._articles:
            self._articles[topic] = articles.ArticleJudgements.from_qrels(self.qrels[topic])
        return self._articles[topic]
