"""A collection in another format than INEX XML, stored one XML file per document.

The assessor re-reads each document from its file (`store.texts`), so a record of a JSON Lines,
TSV or TREC SGML file, an HTML page or a text file is written as the small XML tree that
`focal.evaluation.formats.collections` gives it: parsing that file gives exactly the text the
record has in Focal's text model (checked here for every document), and the offsets, the
renderer, qrels and exports need nothing new.

Streaming and bounded memory (docs/collections.md, "Memory"): the source is read one record at
a time and each document is written before the next is read; what is kept is a short row per
document (id, file, length, digest, title). With `pooled`, only the documents of the pool are
written and stored, the others only checked. Nothing is half-written: the files go into a new
folder that is removed when any record is refused, and the caller writes the rows in one
transaction afterwards.
"""

from __future__ import annotations

import hashlib
import shutil
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

from lxml import etree

from focal.assessor.campaign.setup.profiles import detect_profile
from focal.assessor.campaign.setup.titles import article_title
from focal.assessor.store.texts import text_sha256
from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.detect import CollectionFormat, read_collection
from focal.evaluation.formats.collections.jsonl import Fields
from focal.evaluation.text.document import Document

Progress = Callable[[int, int], None]
EVERY = 1000  # documents between two progress reports (the total is unknown while streaming)


class StoredDocument(NamedTuple):
    """What the database keeps of a stored document: id, file, text length, digest, title."""

    id: str
    file: str
    length: int
    digest: str
    title: str | None


def document_file(folder: Path, doc_id: str) -> Path:
    """Where a document is written: named by the SHA-256 of its id (ids may hold any character
    a file name cannot), under 256 sub-folders so that no folder grows too large."""
    digest = hashlib.sha256(doc_id.encode("utf-8")).hexdigest()
    return folder / digest[:2] / f"{digest}.xml"


def new_folder(store: Path, name: str) -> Path:
    """A fresh folder under `store` for one import of the collection `name`."""
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:60] or "collection"
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    return store / f"{safe}-{stamp}-{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True, slots=True)
class Converted:
    """How to read a collection in another format than XML articles, and where to write it:
    the folder new imports go under, the format (None: from the name or content), the JSON
    fields, and the ids of the pool's documents (None: every document is stored)."""

    store: Path
    format: CollectionFormat | None = None
    fields: Fields | None = None
    pooled: frozenset[str] | None = None


def store_collection(
    path: str | Path, name: str | None, source: Converted, progress: Progress | None = None
) -> tuple[Path, list[StoredDocument], Counter[str]]:
    """Write the documents of the collection at `path` as XML files in a new folder.

    Returns the folder, a row per stored document, and the display profiles their roots
    suggest. A refused record (a FormatError naming the file and line) removes the folder.
    """
    location = Path(path).resolve()
    folder = new_folder(source.store, name or collection_name(location))
    folder.mkdir(parents=True)
    try:
        rows, detected = _write_all(location, folder, source, progress)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return folder, rows, detected


@contextmanager
def removed_on_error(folder: Path | None) -> Iterator[None]:
    """Remove the folder of written documents when the rest of an import fails (None: there is
    none), so that a refused import leaves no file behind."""
    try:
        yield
    except BaseException:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
        raise


def collection_name(path: Path) -> str:
    """A collection's default name: its file name without the format's extensions."""
    name = path.name
    for suffix in (".gz", ".jsonl", ".ndjson", ".json", ".tsv", ".sgml", ".trec"):
        name = name.removesuffix(suffix)
    return name or path.name


def _write_all(
    path: Path, folder: Path, source: Converted, progress: Progress | None
) -> tuple[list[StoredDocument], Counter[str]]:
    rows: list[StoredDocument] = []
    detected: Counter[str] = Counter()
    first_line: dict[str, int | None] = {}
    read = 0
    for record in read_collection(path, source.format, source.fields):
        if record.id in first_line:
            seen = first_line[record.id]
            where = f" (line {seen})" if seen is not None else ""
            raise FormatError(record.file, record.line, f"document id {record.id} again{where}")
        first_line[record.id] = record.line
        read += 1
        if progress is not None and read % EVERY == 0:
            progress(read, 0)
        if source.pooled is not None and record.id not in source.pooled:
            continue
        data = etree.tostring(record.root, encoding="utf-8", xml_declaration=True)
        document = Document.from_bytes(data, record.id)
        expected = "".join(str(piece) for piece in record.root.itertext())
        if document.text != expected:  # the written file must give the record's text
            raise FormatError(record.file, record.line, "its text cannot be stored as XML")
        path = document_file(folder, record.id)
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        detected[detect_profile(record.root)] += 1
        rows.append(
            StoredDocument(
                record.id, str(path), len(expected), text_sha256(expected),
                article_title(document),
            )
        )  # fmt: skip
    if not first_line:
        raise FormatError(path, None, "holds no document")
    if progress is not None:
        progress(read, read)
    return rows, detected
