"""Qrels prepared once for many runs of the article engine (`trec_run`).

Topics get codes in their ids' byte order (trec_eval's `strcmp` order), (topic, document) pairs
go into a `trec_keys.PairIndex`, and per topic what does not depend on the run is kept: judged
counts at each relevance level (`-l`), the ideal DCG and the judged documents per grade. The
qrels' own columns are not kept: at 10,000 queries the table is most of the engine's memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from focal.evaluation.formats.arrow import binary_array, combined, numeric_array, to_numpy
from focal.evaluation.formats.records import Judgement
from focal.evaluation.formats.trec import (
    MAX_GRADE,
    QrelsLines,
    TrecQrels,
    TrecRun,
    qrels_duplicate_error,
    read_trec_qrels,
    read_trec_run,
)
from focal.evaluation.formats.trec_batches import stream_trec_run
from focal.evaluation.measures.trec_eval.engine.files import QrelsAhead, plain_qrels, plain_run
from focal.evaluation.measures.trec_eval.engine.keys import PairIndex
from focal.evaluation.measures.trec_eval.families.ideal import IdealDCG, running_sums
from focal.evaluation.measures.trec_eval.families.measure import NONPOOL, UNJUDGED, Floats

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class PreparedRun:
    """A run in a `GradeTable`'s terms: topic codes (with the names of the topics the qrels do
    not know), the document ids (Arrow, in the chunks they were read in), scores. It replaces
    the run's other Arrow columns once made (`GradeTable.prepare`)."""

    run_id: str
    file: str
    table: GradeTable
    codes: Ints
    unknown: list[str]
    docs: pa.ChunkedArray
    score: Floats
    warnings: list[str] = field(default_factory=list)


class GradeTable:
    """(topic, document) -> grade for many runs (negative grades stored as UNJUDGED), and each
    topic's counts, ideal DCG and judged documents per grade."""

    def __init__(self, topic: Any, doc: Any, grade: Ints, file: str = "",
                 coded: tuple[Any, npt.NDArray[np.int32]] | None = None,
                 ahead: bool = False) -> None:  # fmt: skip
        """`coded`: the topic ids in byte order and each row's code, in place of `topic`.
        `ahead`: compute every run's per-topic figures now (`ideal`, `levels`, otherwise
        computed on first use), while another thread fills the look-up tables in C: two cores
        for the qrels of a large evaluation, which the runs' workers wait for."""
        self.file = file
        if coded is None:  # (pyarrow.compute imported when first used: 30 ms)
            import pyarrow.compute as pc

            names = combined(pc.unique(topic))
            names = names.take(pc.sort_indices(names))  # byte order
            coded = names, to_numpy(combined(pc.index_in(topic, value_set=names)))  # int32
        self.names, self.codes = coded
        self.topics = [t.decode(errors="replace") for t in self.names.to_pylist()]
        if int(grade.max(initial=0)) > MAX_GRADE:  # (the readers name the line: `checked_grade`)
            raise ValueError(f"{file or 'qrels'}: a grade above {MAX_GRADE}, the largest taken")
        self.raw_grades = grade
        self._counts: dict[int, tuple[Ints, Ints]] = {}
        self._names_as: dict[pa.DataType, Any] = {}
        self.positive = int(np.count_nonzero(grade > 0))  # `all` num_rel with -c
        if not ahead:
            self.pairs = PairIndex(self.codes, doc, len(self.topics))
            return
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(1, thread_name_prefix="focal-qrels") as thread:
            building = thread.submit(PairIndex, self.codes, doc, len(self.topics))
            _ = self.ideal, self.levels  # (the C part of the tables runs without the GIL)
            self.pairs = building.result()

    @cached_property
    def judged(self) -> dict[str, Ints]:
        """Topic id -> the grades of its judged documents (qrels order)."""
        order = np.argsort(self.codes, kind="stable")
        bounds = np.searchsorted(self.codes[order], np.arange(len(self.topics) + 1))
        grades = self.raw_grades[order]
        return {t: grades[bounds[i] : bounds[i + 1]] for i, t in enumerate(self.topics)}

    @cached_property
    def _per_grade(self) -> Ints | None:
        """Judged documents per (topic code, grade >= 0): one row per topic; None when the
        grades are too large for such a table (then each topic's grades are counted alone)."""
        kept = self.raw_grades >= 0
        largest = int(self.raw_grades.max(initial=0))
        size = len(self.topics) * (largest + 1)
        if size > 8 * len(self.codes) + 4096:
            return None
        cells = self.codes.astype(np.int64)  # in place from here: one array of the qrels' size
        cells *= largest + 1
        cells += self.raw_grades
        cells[~kept] = size  # negative grades: counted in a cell past the table, then dropped
        counts = np.bincount(cells, minlength=size + 1)[:size]
        return counts.reshape(len(self.topics), largest + 1)

    @cached_property
    def ideal(self) -> IdealDCG:
        """Per topic code: the cumulative ideal DCG at ranks 1, 2, ... (grades above 0, best
        first), each topic summed on its own as trec_eval sums it."""
        if self._per_grade is None:
            parts, sizes = [], []
            for grades in self.judged.values():
                positive = np.sort(grades[grades > 0])[::-1].astype(np.float64)
                parts.append(positive / np.log2(np.arange(2, len(positive) + 2)))
                sizes.append(len(positive))
            terms = np.concatenate(parts) if parts else np.zeros(0)
            return running_sums(terms, np.array(sizes, dtype=np.int64))
        counts = self._per_grade[:, :0:-1]  # grades from the largest down to 1
        sizes = counts.sum(axis=1)
        values = np.arange(counts.shape[1], 0, -1, dtype=np.float64)
        best = np.repeat(np.tile(values, len(sizes)), counts.ravel())
        firsts = np.cumsum(sizes) - sizes
        ranks = np.arange(len(best)) - np.repeat(firsts, sizes)
        return running_sums(best / np.log2(ranks + 2.0), sizes)

    @cached_property
    def levels(self) -> list[Ints]:
        """Per topic code: judged documents per grade 0..largest judged in that topic."""
        counts = self._per_grade
        if counts is None:
            return [np.bincount(g[g >= 0]).astype(np.int64) for g in self.judged.values()]
        present = counts > 0
        ends = np.where(present.any(axis=1), counts.shape[1] - np.argmax(present[:, ::-1], 1), 0)
        return [row[:end] for row, end in zip(counts, ends.tolist(), strict=True)]

    def has_judgements(self, topic: str) -> bool:
        """Whether a topic has a judged document (a grade of 0 or more)."""
        return topic in self.topics and len(self.levels[self.topics.index(topic)]) > 0

    def only(self, topic: str) -> GradeTable:
        """The same judgements restricted to one topic (trec_eval's `-D level.qid`)."""
        if topic not in self.topics:
            return GradeTable.from_mapping({}, self.file)
        rows = np.flatnonzero(self.codes == self.topics.index(topic))
        docs = self.pairs.docs.take(numeric_array(rows)).to_pylist()
        judged = dict(zip(docs, self.raw_grades[rows].tolist(), strict=True))
        return GradeTable.from_mapping({topic: judged}, self.file)

    def with_gains(self, gains: dict[int, int]) -> GradeTable:
        """The same judgements, each grade named in `gains` replaced by its gain (the others
        kept): ir_measures' `nDCG(gains=...)`, which maps the qrels before trec_eval reads them."""
        grades = self.raw_grades.copy()
        for grade, gain in gains.items():
            grades[self.raw_grades == grade] = gain
        rows = np.arange(len(grades), dtype=np.int64)
        topics = [self.topics[c] for c in self.codes.tolist()]
        docs = self.pairs.docs.take(numeric_array(rows)).to_pylist()
        judged: dict[str, dict[bytes, int]] = {}
        for topic, doc, grade in zip(topics, docs, grades.tolist(), strict=True):
            judged.setdefault(topic, {})[doc] = grade
        return GradeTable.from_mapping(judged, self.file)

    @classmethod
    def from_trec(cls, qrels: TrecQrels) -> GradeTable:
        """From TREC qrels; a document judged twice in a topic is refused, naming both lines
        (qrels read with `check_duplicates=False` are checked here, by the look-up table)."""
        table = cls(qrels.topic, qrels.doc, qrels.grade, qrels.file)
        if table.pairs.duplicate:
            raise qrels_duplicate_error(qrels.file)
        return table

    @classmethod
    def from_trec_file(
        cls, path: str, ahead: QrelsAhead | None = None, lines: QrelsLines | None = None
    ) -> GradeTable:
        """TREC qrels from their file: read in C when plain (`_article_kernel.parse_qrels`: four
        plain fields a line, an integer grade; taken from `ahead` when it read them already),
        otherwise by `read_trec_qrels`, which names what is wrong; a document judged twice in a
        topic is refused either way."""
        read = plain_qrels(path, ahead)
        if read is None or np.frombuffer(read[5], np.int64).max(initial=0) > MAX_GRADE:
            return cls.from_trec(read_trec_qrels(path, check_duplicates=False, lines=lines))
        rows, codes, ids, ends, docs, grades = read  # (topics numbered in byte order)
        coded = binary_array(ids), np.frombuffer(codes, np.int32)
        doc = pa.Array.from_buffers(pa.binary(), rows, [None, pa.py_buffer(ends),
                                                         pa.py_buffer(docs)])  # fmt: skip
        table = cls(None, doc, np.frombuffer(grades, dtype=np.int64), path, coded, ahead=True)
        if table.pairs.duplicate:
            raise qrels_duplicate_error(path)
        return table

    @classmethod
    def from_mapping(cls, topics: Mapping[str, Mapping[bytes, int]], file: str = "") -> GradeTable:
        """From topic -> {document: grade}."""
        rows = [(t.encode(), d, g) for t, judged in topics.items() for d, g in judged.items()]
        topic = binary_array([r[0] for r in rows])
        doc = binary_array([r[1] for r in rows])
        return cls(topic, doc, np.array([r[2] for r in rows], dtype=np.int64), file)

    @classmethod
    def from_fol(cls, qrels: Mapping[str, Mapping[str, Judgement]], file: str = "") -> GradeTable:
        """FOL qrels: an article with highlighted characters has grade 1, the others 0."""
        grades = {
            topic: {article.encode(): int(j.rel_chars > 0) for article, j in judged.items()}
            for topic, judged in qrels.items()
        }
        return cls.from_mapping(grades, file)

    def topic_codes(self, topic: Any) -> tuple[Ints, list[str]]:
        """A run's topic column as codes: a qrels topic's code, or for a topic the qrels do not
        know, len(self.topics) + its index in the returned names (sorted)."""
        import pyarrow.compute as pc  # (imported when first used: 30 ms)

        if topic.type not in self._names_as:
            self._names_as[topic.type] = pc.cast(self.names, topic.type)
        found = combined(pc.index_in(topic, value_set=self._names_as[topic.type]))
        if not found.null_count:
            return to_numpy(found), []  # int32
        codes = to_numpy(found.fill_null(-1))
        missing = topic.take(numeric_array(np.flatnonzero(codes < 0)))
        strange = combined(pc.unique(missing)).sort()
        where = to_numpy(combined(pc.index_in(missing, value_set=strange))).astype(np.int64)
        codes[codes < 0] = len(self.topics) + where
        return codes, [t.decode(errors="replace") for t in strange.to_pylist()]

    def prepare(self, run: TrecRun | PreparedRun) -> PreparedRun:
        """The run for this table (a run prepared for it already is returned as it is)."""
        if isinstance(run, PreparedRun) and run.table is self:
            return run
        if isinstance(run, PreparedRun):
            raise ValueError("a run prepared for other qrels")
        codes, unknown = self.topic_codes(run.topic)
        docs = run.doc if isinstance(run.doc, pa.ChunkedArray) else pa.chunked_array([run.doc])
        return PreparedRun(run.run_id, run.file, self, codes, unknown, docs, run.score,
                           list(run.warnings))  # fmt: skip

    def prepare_file(self, path: str) -> PreparedRun:
        """A TREC run file prepared block by block in C (`plain_run`); a file that reader does
        not take goes through pyarrow's reader batch by batch (`trec_batches`), so that Arrow's
        columns never hold the whole run, and a file that is not plain through `read_trec_run`."""
        plain = self.plain_run(path)
        if plain is not None:
            return plain
        parts: list[tuple[Ints, list[str], pa.Array, Floats]] = []

        def consume(batch: pa.RecordBatch) -> None:
            codes, strange = self.topic_codes(batch.column(0))
            parts.append((codes, strange, batch.column(2), to_numpy(batch.column(4))))

        run_id = stream_trec_run(path, consume)
        if run_id is None:
            return self.prepare(read_trec_run(path, False))
        names = sorted({name for part in parts for name in part[1]})
        for codes, strange, _, _ in parts:  # a batch's own unknown topics: the run's numbers
            if strange:
                at = np.array([names.index(name) for name in strange], dtype=codes.dtype)
                outside = codes >= len(self.topics)
                codes[outside] = len(self.topics) + at[codes[outside] - len(self.topics)]
        docs = pa.chunked_array([part[2] for part in parts], type=parts[0][2].type)
        return PreparedRun(run_id, path, self, np.concatenate([part[0] for part in parts]), names,
                           docs, np.concatenate([part[3] for part in parts]), [])  # fmt: skip

    @cached_property
    def _topic_index(self) -> PairIndex:
        """The qrels' topic ids in one table (every code 0): its rows are the topic codes."""
        return PairIndex(np.zeros(len(self.names), dtype=np.int32), self.names, 1)

    def plain_run(self, path: str) -> PreparedRun | None:
        """A run read in C (`trec_files.plain_run`): topic codes, scores and the document ids
        straight from the bytes, in one pass; None when that reader does not take the file."""
        read = plain_run(path, self._topic_index)
        if read is None:
            return None
        run_id, codes, docs, scores = read
        return PreparedRun(run_id, path, self, codes, [], docs, scores, [])

    def grades_of(self, codes: Ints, docs: pa.ChunkedArray) -> Ints | None:
        """The grade of each (topic code, document) row (NONPOOL where not judged), or None when
        a pair occurs twice (trec_eval refuses the run)."""
        return self.pairs.find(codes, docs, self.raw_grades, missing=NONPOOL, negative=UNJUDGED)

    def prepare_for(self, level: int) -> None:
        """Compute now what every run's evaluation at relevance `level` reads of the qrels (the
        judged counts, ideal DCG and grade levels per topic, otherwise computed on first use):
        forked workers then inherit them instead of each computing them on its first run."""
        self.counts(level)
        _ = self.ideal, self.levels

    def counts(self, level: int) -> tuple[Ints, Ints]:
        """Per topic code: judged documents with grade >= level, and with 0 <= grade < level
        (a level below 0 counts as 0 here, as `form_res_rels.c` counts only judged grades)."""
        if level not in self._counts:
            if level < 0:
                self._counts[level] = self.counts(0)
                return self._counts[level]
            per_grade = self._per_grade
            if per_grade is not None:  # judged documents per (topic, grade): sum the columns
                relevant = per_grade[:, level:].sum(axis=1)
                below = per_grade[:, : min(level, per_grade.shape[1])].sum(axis=1)
            else:
                size, grade, codes = len(self.topics), self.raw_grades, self.codes
                relevant = np.bincount(codes[grade >= level], minlength=size)
                below = np.bincount(codes[(grade >= 0) & (grade < level)], minlength=size)
            self._counts[level] = (relevant.astype(np.int64), below.astype(np.int64))
        return self._counts[level]
