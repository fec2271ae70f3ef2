"""Which reader a collection path needs, from its name or its content (docs/collections.md).

A folder holds INEX-style `*.xml` articles, `.html`/`.htm` pages or `.txt` files; a file is
JSON Lines (`.jsonl`, `.ndjson`, `.jsonl.gz`, or content starting with `{`), TSV (`.tsv`,
`.tsv.gz`, or a first line with a tab) or TREC SGML (content starting with `<DOC>`). `--format`
says it when the name and content do not.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal, get_args

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.documents import SourceDocument
from focal.evaluation.formats.collections.jsonl import Fields, read_jsonl
from focal.evaluation.formats.collections.lines import head
from focal.evaluation.formats.collections.pages import (
    HTML_SUFFIXES,
    TEXT_SUFFIXES,
    read_folder,
    read_page,
    read_text_file,
)
from focal.evaluation.formats.collections.sgml import read_sgml
from focal.evaluation.formats.collections.tsv import read_tsv

CollectionFormat = Literal["xml", "jsonl", "tsv", "trec", "html", "text"]
FORMATS: tuple[str, ...] = get_args(CollectionFormat)
_SUFFIXES: tuple[tuple[tuple[str, ...], CollectionFormat], ...] = (
    ((".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz", ".json.gz"), "jsonl"),
    ((".tsv", ".tsv.gz"), "tsv"),
    ((".sgml", ".trec", ".sgml.gz", ".trec.gz"), "trec"),
    (HTML_SUFFIXES, "html"),
    (TEXT_SUFFIXES, "text"),
    ((".xml",), "xml"),
)

_FOLDERS: tuple[tuple[tuple[str, ...], CollectionFormat], ...] = (
    ((".xml",), "xml"),
    (HTML_SUFFIXES, "html"),
    (TEXT_SUFFIXES, "text"),
)


def checked_format(value: str) -> CollectionFormat:
    """`value` as a collection format, else a ValueError naming the formats."""
    for known in get_args(CollectionFormat):
        if value == known:
            return known  # type: ignore[no-any-return]
    raise ValueError(f"expected a collection format ({', '.join(FORMATS)}), found {value!r}")


def format_of_name(name: str) -> CollectionFormat | None:
    """The format a file's name says (None: the name does not say)."""
    lower = name.lower()
    return next((found for suffixes, found in _SUFFIXES if lower.endswith(suffixes)), None)


def detect_format(path: str | Path) -> CollectionFormat:
    """The format of a collection at `path`, from its name, else its content."""
    location = Path(path)
    if location.is_dir():
        names = [entry.name.lower() for entry in location.iterdir()]
        for suffixes, found in _FOLDERS:
            if any(name.endswith(suffixes) for name in names):
                return found
        raise FormatError(location, None, "contains no .xml, .html or .txt files")
    named = format_of_name(location.name)
    if named is not None:
        return named
    start = head(location).lstrip()
    if start[:5].upper() == b"<DOC>":
        return "trec"
    if start.startswith(b"{"):
        return "jsonl"
    if b"\t" in start.split(b"\n", 1)[0]:
        return "tsv"
    raise FormatError(
        location, None, "cannot tell the collection format (JSON Lines, TSV, TREC SGML, a folder "
        "of .xml, .html or .txt files): say it with --format"
    )  # fmt: skip


def read_collection(
    path: str | Path, format: CollectionFormat | None = None, fields: Fields | None = None
) -> Iterator[SourceDocument]:
    """The documents of the collection at `path`, one at a time, in the order of the source.

    INEX-style XML articles are read by `focal.evaluation.text` as before; this reads the other
    formats (an `xml` folder is refused here: its callers already read it).
    """
    found = format or detect_format(path)
    location = Path(path)
    if found == "jsonl":
        return read_jsonl(location, fields)
    if found == "tsv":
        return read_tsv(location)
    if found == "trec":
        return read_sgml(location)
    if found in ("html", "text"):
        suffixes = HTML_SUFFIXES if found == "html" else TEXT_SUFFIXES
        if location.is_dir():
            return read_folder(location, suffixes)
        return iter([read_page(location) if found == "html" else read_text_file(location)])
    raise FormatError(location, None, "XML articles are read one file each, not as a stream")


def find_document(
    path: str | Path,
    doc_id: str | None,
    format: CollectionFormat | None = None,
    fields: Fields | None = None,
) -> SourceDocument:
    """One document of a collection: the one with id `doc_id`, or the only one there is."""
    documents = read_collection(path, format, fields)
    if doc_id is None:
        first = next(documents, None)
        if first is None:
            raise FormatError(path, None, "holds no document")
        if next(documents, None) is not None:
            raise FormatError(path, None, "holds several documents: name one with --id")
        return first
    for document in documents:
        if document.id == doc_id:
            return document
    raise FormatError(path, None, f"holds no document with the id {doc_id!r}")
