"""Documents of a collection looked up by id, for converting runs (docs/collections.md).

`Documents` reads a collection in any format once, on first use, and keeps only the documents
it was asked to keep (a run names a few thousand of a collection's millions); a folder of XML
articles is read file by file, as `formats.convert.Collection` does.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.detect import (
    CollectionFormat,
    detect_format,
    read_collection,
)
from focal.evaluation.formats.collections.jsonl import Fields
from focal.evaluation.formats.convert import Collection as ArticleFolder
from focal.evaluation.formats.convert import DocumentSource
from focal.evaluation.text.document import Document


class Documents:
    """The documents `wanted` of the collection at `path`, read in one pass on first use."""

    def __init__(
        self,
        path: str | Path,
        wanted: Collection[str],
        format: CollectionFormat | None = None,
        fields: Fields | None = None,
    ) -> None:
        self.path = Path(path)
        self.wanted = frozenset(wanted)
        self.format = format
        self.fields = fields
        self._documents: dict[str, Document] | None = None

    def document(self, article: str, run_file: str, line: int) -> Document:
        """The document `article`; a FormatError naming the run's file and line if absent."""
        if self._documents is None:
            self._documents = {
                record.id: record.document()
                for record in read_collection(self.path, self.format, self.fields)
                if record.id in self.wanted
            }
        found = self._documents.get(article)
        if found is None:
            raise FormatError(run_file, line, f"document {article} is not in {self.path}")
        return found


def documents_at(
    path: str | Path,
    wanted: Collection[str],
    format: CollectionFormat | None = None,
    fields: Fields | None = None,
) -> DocumentSource:
    """The documents of the collection at `path` in whatever format it is."""
    if (format or detect_format(path)) == "xml":
        return ArticleFolder(path)
    return Documents(path, wanted, format, fields)
