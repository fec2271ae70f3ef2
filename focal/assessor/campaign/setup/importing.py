"""Import a collection, topics and runs into the database (no Flask).

Each import is all-or-nothing: everything is parsed first (a bad file raises one FormatError
naming it), then written in the caller's transaction, which the caller commits. A `progress`
callback hears of every file read, and only before anything is written (the Import page
records it in another transaction, which must not wait for this one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from focal.assessor.campaign.setup.converted.stored import (
    Converted,
    removed_on_error,
    store_collection,
)
from focal.assessor.campaign.setup.profiles import detect_profile, get_profile
from focal.assessor.campaign.setup.titles import article_title
from focal.assessor.store.models import Collection, Document, Judgement, Run, RunResult, Topic
from focal.assessor.store.texts import text_sha256
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import ARTICLE_ID_LENGTH, id_problem
from focal.evaluation.formats.records import Run as ParsedRun
from focal.evaluation.formats.records import Topic as ParsedTopic
from focal.evaluation.text.document import Document as ParsedDocument
from focal.evaluation.text.xmlsafe import parse_xml

BATCH = 5000
# Where `focal import qrels` puts articles known only by id and length (file and hash NULL).
PLACEHOLDER_COLLECTION = "qrels: id and length only"


Progress = Callable[[int, int], None]
"""Called with (files read, files in all) while an import reads its files, before it writes."""


@dataclass(frozen=True, slots=True)
class ImportedCollection:
    """What `import_collection` stored: the collection's name, how many documents, and the
    display profile the collection now has (None: detected per document, docs/profiles.md)."""

    name: str
    documents: int
    display_profile: str | None


def import_collection(
    session: Session,
    directory: str | Path,
    name: str | None = None,
    profile: str | None = None,
    progress: Progress | None = None,
    *,
    source: Converted | None = None,
) -> ImportedCollection:
    """Store every `*.xml` of `directory` (id = file stem, the collection named `name`, else
    after the folder) and say what was stored; with `source`, a collection in another format
    (JSON Lines, TSV, TREC SGML, HTML, text: `directory` is its file or folder), its documents
    written as XML files under `source.store`, `name` else after the file (docs/collections.md).

    `profile` is the collection's display profile (docs/profiles.md); without one a new
    collection gets the profile its documents' root elements suggest (NULL, detected per
    document, when they disagree), and an existing collection keeps its choice.

    Re-importing a document is allowed when its text is unchanged (only the path is updated); a
    changed text is refused when the document already has judgements, since their offsets would
    then point at other text. An article known only by id and length (`focal import qrels`
    without the collection) gets its file when the text has the stored length, even if judged;
    a judged one whose text has another length is refused. Everything is checked before
    anything is written.
    """
    if profile is not None:
        get_profile(profile)  # an unknown name is refused before any file is read
    if source is not None:
        root, rows, detected = store_collection(directory, name, source, progress)
        articles = [_Article(*row) for row in rows]
    else:
        root, files = _article_files(directory)
        articles, detected = _read_articles(files, progress)
    with removed_on_error(root if source is not None else None):  # the written documents
        existing = _refuse_changed_judged_texts(session, articles)
        collection = _stored_collection(session, name or root.name, root, profile, detected)
        _store_documents(session, collection.id, articles, existing)
        _drop_empty_placeholder(session)
    return ImportedCollection(collection.name, len(articles), collection.display_profile)


class _Article(NamedTuple):
    """An article file as read: its id (the file stem), path, text length, digest and title."""

    id: str
    file: str
    length: int
    digest: str
    title: str | None  # the pool list's title (`campaign.titles`)


def _article_files(directory: str | Path) -> tuple[Path, list[Path]]:
    """The folder, resolved, and its `*.xml` files in name order, each checked as an article."""
    root = Path(directory).resolve()
    if not root.is_dir():
        raise FormatError(root, None, "is not a directory")
    files = sorted(root.glob("*.xml"))
    if not files:
        raise FormatError(root, None, "contains no *.xml files")
    for path in files:
        _check_article_file(path)
    return root, files


def _read_articles(
    files: list[Path], progress: Progress | None
) -> tuple[list[_Article], Counter[str]]:
    """Every file parsed (a DocumentError names a bad one), and how many documents' roots
    suggest each display profile."""
    articles: list[_Article] = []
    detected: Counter[str] = Counter()
    for path in files:
        element = parse_xml(path).getroot()  # raises DocumentError naming the file
        document = ParsedDocument(path.stem, element)
        detected[detect_profile(element)] += 1
        text = document.text
        title = article_title(document)
        articles.append(_Article(path.stem, str(path), len(text), text_sha256(text), title))
        if progress is not None:
            progress(len(articles), len(files))
    return articles, detected


def _refuse_changed_judged_texts(session: Session, articles: list[_Article]) -> dict[str, Document]:
    """The stored documents by id, once no judged one would get another text."""
    existing = {row.id: row for row in session.scalars(select(Document))}
    judged = set(session.scalars(select(Judgement.article).distinct()))
    for article in articles:
        row = existing.get(article.id)
        if row is not None and article.id in judged:
            _check_judged_text(row, article.file, article.length, article.digest)
    return existing


def _store_documents(
    session: Session, collection_id: int, articles: list[_Article], existing: dict[str, Document]
) -> None:
    """Adds the new documents and moves the stored ones to this collection and file."""
    for article in articles:
        row = existing.get(article.id)
        if row is None:
            row = Document(id=article.id)
            session.add(row)
        row.collection_id, row.file = collection_id, article.file
        row.text_length, row.text_sha256 = article.length, article.digest
        row.title = article.title
    session.flush()


def _stored_collection(
    session: Session, name: str, root: Path, profile: str | None, detected: Counter[str]
) -> Collection:
    """The collection `name`, made if new (its profile `profile`, else the one every document's
    root suggests, else NULL), now read from `root`; `profile` replaces an existing choice."""
    collection = session.scalars(select(Collection).where(Collection.name == name)).first()
    if collection is None:
        collection = Collection(name=name, directory=str(root))
        # documents whose roots disagree: NULL, each document's own root chooses
        collection.display_profile = profile or (
            next(iter(detected)) if len(detected) == 1 else None
        )
        session.add(collection)
        session.flush()
    collection.directory = str(root)
    if profile is not None:
        collection.display_profile = profile
    return collection


def _check_article_file(path: Path) -> None:
    """A regular file whose name (the article id) is UTF-8 and an id the formats can carry.

    Checked before any file is opened: reading a FIFO named `x.xml` would wait forever, and an
    id that is not UTF-8 could be neither stored nor written in a qrels file.
    """
    shown = str(path).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError:
        raise FormatError(shown, None, "expected a UTF-8 file name (the article id)") from None
    if not path.is_file():
        raise FormatError(shown, None, "is not a regular file (a FIFO, device or folder)")
    problem = id_problem(path.stem, "article id", ARTICLE_ID_LENGTH)
    if problem is not None:
        raise FormatError(shown, None, f"{problem} (the file name without .xml)")


def _check_judged_text(row: Document, file: str, length: int, digest: str) -> None:
    """Refuse a file whose text is not the one the judgements of `row` were made on."""
    if row.text_sha256 is None:  # known only by id and length: the length is all we can check
        if row.text_length != length:
            raise FormatError(
                file,
                None,
                f"article {row.id} was judged as {row.text_length} characters long (known only "
                f"by id and length), this file's text has {length}: the judged offsets would "
                "point at other text",
            )
    elif row.text_sha256 != digest:
        raise FormatError(file, None, f"text differs from the judged article {row.id}")


def _drop_empty_placeholder(session: Session) -> None:
    """Remove the collection of articles known only by id and length once none is left."""
    placeholder = session.scalars(
        select(Collection).where(Collection.name == PLACEHOLDER_COLLECTION)
    ).first()
    if placeholder is None:
        return
    if session.scalar(select(Document.id).where(Document.collection_id == placeholder.id)) is None:
        session.delete(placeholder)
        session.flush()


def imported_counts(session: Session) -> dict[str, int]:
    """How many collections, documents, topics and runs the database holds."""
    return {
        name: int(session.scalar(select(func.count()).select_from(model)) or 0)
        for name, model in (
            ("collections", Collection),
            ("documents", Document),
            ("topics", Topic),
            ("runs", Run),
        )
    }


def import_topics(session: Session, path: str | Path) -> int:
    """Store (or update) the topics of an INEX topics file; returns how many."""
    from focal.evaluation.formats.inex.topics import read_topics

    topics: list[ParsedTopic] = read_topics(path)
    for topic in topics:
        row = session.get(Topic, topic.id) or Topic(id=topic.id)
        row.ct_no = topic.ct_no
        row.title, row.castitle, row.phrasetitle = topic.title, topic.castitle, topic.phrasetitle
        row.description, row.narrative = topic.description, topic.narrative
        session.add(row)
    session.flush()
    return len(topics)


def import_runs(
    session: Session,
    paths: Sequence[str | Path],
    progress: Progress | None = None,
    segments: str | Path | None = None,
) -> list[tuple[str, int]]:
    """Store every result of each run (a run of the same id is replaced); returns (id, results).

    With `segments`, the runs name segments (`docid#n`) of that segment file, stored as the
    segments' ranges of the imported documents (docs/collections.md, "Segments").
    """
    from focal.evaluation.formats.fol.runs import read_run

    parsed: list[ParsedRun] = []
    for path in paths:
        parsed.append(read_run(path))
        if progress is not None:
            progress(len(parsed), len(paths))
    if segments is not None:
        from focal.assessor.campaign.setup.converted.runs import segment_runs

        parsed = segment_runs(session, parsed, segments)
    return store_runs(session, parsed)


def store_runs(session: Session, parsed: list[ParsedRun]) -> list[tuple[str, int]]:
    """Store parsed runs, all or nothing (two with one id are refused); returns (id, results)."""
    seen: dict[str, str] = {}
    for run in parsed:
        if run.run_id in seen:
            raise FormatError(run.file, None, f"run id {run.run_id} is also in {seen[run.run_id]}")
        seen[run.run_id] = run.file
    summary = []
    for run in parsed:
        summary.append((run.run_id, _store_run(session, run)))
    session.flush()
    return summary


def _store_run(session: Session, run: ParsedRun) -> int:
    row = session.scalars(select(Run).where(Run.name == run.run_id)).first()
    if row is not None:
        session.execute(delete(RunResult).where(RunResult.run_id == row.id))
        row.file, row.kind = str(Path(run.file).resolve()), run.kind
    else:
        row = Run(name=run.run_id, file=str(Path(run.file).resolve()), kind=run.kind)
        session.add(row)
        session.flush()
    rows = []
    count = 0
    for topic, results in run.topics.items():
        # The rank that counts is the order of lines within a topic (as in the official program).
        for rank, result in enumerate(results, start=1):
            start = None if result.missing else result.start
            length = None if result.missing else result.length
            rows.append(
                {
                    "run_id": row.id,
                    "topic_id": topic,
                    "article": result.article,
                    "rank": rank,
                    "score": result.score,
                    "start": start,
                    "length": length,
                    "path": result.path,
                }
            )
            if len(rows) >= BATCH:
                session.execute(insert(RunResult), rows)
                count += len(rows)
                rows = []
    if rows:
        session.execute(insert(RunResult), rows)
        count += len(rows)
    return count
