"""Parsed documents for the web app, re-read from their files and kept in a small LRU cache.

The database stores only each document's file, text length and SHA-256; a file that changed
since import is refused (its offsets would no longer mean what the judgements say).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from focal.assessor.store import models
from focal.evaluation.errors import FormatError
from focal.evaluation.text.document import Document

CACHE_SIZE = 64
_cache: OrderedDict[tuple[str, str], Document] = OrderedDict()
_lock = threading.Lock()


class ChangedDocumentError(FormatError):
    """A document file whose text is no longer the text that was imported."""


class MissingTextError(LookupError):
    """An article known only by id and length: its collection was never imported."""

    def __init__(self, article: str) -> None:
        self.article = article
        super().__init__(f"article {article} is known only by id and length; import its collection")


def text_sha256(text: str) -> str:
    """The hash stored for a document's text (SHA-256 of its UTF-8 encoding)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(row: models.Document) -> Document:
    """The parsed document of `row` (cached; checked against the stored hash).

    Raises `MissingTextError` for an article known only by id and length.
    """
    if row.file is None or row.text_sha256 is None:
        raise MissingTextError(row.id)
    key = (row.file, row.text_sha256)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            _cache.move_to_end(key)
            return cached
    document = Document.from_file(row.file)
    if text_sha256(document.text) != row.text_sha256:
        raise ChangedDocumentError(row.file, None, "the text changed since it was imported")
    with _lock:
        _cache[key] = document
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return document


def text_of(row: models.Document) -> str:
    """The text of `row` (code points, as offsets count them)."""
    return load(row).text


def clear_cache() -> None:
    """Forget every parsed document (tests, or after re-importing files)."""
    with _lock:
        _cache.clear()
