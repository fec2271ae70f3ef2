"""Turning element and article results into FOL results with the collection's element tables.

An element result `/article[1]/bdy[1]/sec[2]` becomes the element's span (its offset and length
in code points of the document text, spec section 1); an article result becomes the whole text
of the article. FOL results are kept as they are. Each document is parsed once per conversion.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Protocol

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Result, Run
from focal.evaluation.text.document import Document, PathError


class DocumentSource(Protocol):
    """Where a conversion finds documents by id: `Collection` (a folder of XML articles) or
    `formats.collections.lookup.Documents` (a collection in another format)."""

    def document(self, article: str, run_file: str, line: int) -> Document: ...


class Collection:
    """The documents of a collection folder (`<id>.xml`), each parsed on first use and kept."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._documents: dict[str, Document] = {}

    def document(self, article: str, run_file: str, line: int) -> Document:
        """The document `article`; a FormatError naming the run's file and line if there is none."""
        cached = self._documents.get(article)
        if cached is not None:
            return cached
        # an id is a file name, never a path: refuse anything that could leave the folder
        if not article or "/" in article or "\\" in article or article.startswith("."):
            raise FormatError(run_file, line, f"expected an article id, found {article!r}")
        path = self.folder / f"{article}.xml"
        if not path.is_file():
            raise FormatError(
                run_file, line, f"article {article} is not in the collection ({path} not found)"
            )
        document = self._documents[article] = Document.from_file(path)
        return document


def to_fol(run: Run, collection_dir: str | Path | DocumentSource) -> Run:
    """A FOL copy of `run`: element paths and whole articles become `offset length` results.

    Ranks, scores and lines are kept. Raises FormatError naming the run's file and line for an
    article missing from the collection or a path that is not in its document.
    """
    if run.kind == "fol":
        return Run(run.run_id, run.file, "fol", dict(run.topics), list(run.warnings))
    collection = (
        Collection(collection_dir) if isinstance(collection_dir, str | Path) else collection_dir
    )
    topics: dict[str, list[Result]] = {}
    for topic, results in run.topics.items():
        topics[topic] = [_as_fol(result, run.file, collection) for result in results]
    return Run(run.run_id, run.file, "fol", topics, list(run.warnings))


def _as_fol(result: Result, run_file: str, collection: DocumentSource) -> Result:
    if result.start is not None or result.missing:
        return result  # already FOL (a submission may mix nothing else, but be safe)
    document = collection.document(result.article, run_file, result.line)
    if result.path is None:
        return replace(result, start=0, length=len(document.text))
    try:
        start, length = document.path_to_fol(result.path)
    except PathError:
        raise FormatError(
            run_file, result.line, f"no element {result.path} in article {result.article}"
        ) from None
    return replace(result, start=start, length=length, path=None)
