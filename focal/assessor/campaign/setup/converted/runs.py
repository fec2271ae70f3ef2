"""Runs of segments and RAG answers imported over the documents of the database.

A run naming segments (`docid#n`) and an answers file with citations become FOL runs whose
results are the ranges of the cited segments or documents (docs/collections.md), found in the
imported documents (`store.texts`), so pools, the assessor and the exports take them unchanged.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session

from focal.assessor.store import texts
from focal.assessor.store.models import Document as DocumentRow
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.answers import (
    answer_runs,
    citation_resolver,
    read_answers,
)
from focal.evaluation.formats.collections.segments import read_segments, segment_ids, segment_run
from focal.evaluation.formats.records import Run
from focal.evaluation.text.document import Document


class StoredDocuments:
    """The documents of the database by id, as a conversion asks for them."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def document(self, article: str, run_file: str, line: int) -> Document:
        """The imported document `article`; a FormatError naming the run's line if absent."""
        row = self.session.get(DocumentRow, article)
        if row is None or row.file is None:
            raise FormatError(
                run_file, line, f"document {article} is not imported: import its collection first"
            )
        return texts.load(row)


def segment_runs(session: Session, runs: list[Run], segments: str | Path) -> list[Run]:
    """Runs of segment ids as FOL runs over the imported documents."""
    wanted = set().union(*(segment_ids(run) for run in runs))
    table = read_segments(segments, wanted)
    documents = StoredDocuments(session)
    return [segment_run(run, table, documents) for run in runs]


def answers_as_runs(
    session: Session, path: str | Path, segments: str | Path | None = None
) -> list[Run]:
    """The answers of a file as runs (one per run id) of what they cite, over the imported
    documents; `importing.store_runs` stores them."""
    answers = read_answers(path)
    ids = {c for answer in answers for c in answer.cited_ids()}
    table = read_segments(segments, ids) if segments is not None else {}
    resolve = citation_resolver(table, StoredDocuments(session))
    return answer_runs(answers, resolve)
