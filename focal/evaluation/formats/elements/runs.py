"""Element runs for the element measures (spec section 5): 7-field text runs or INEX XML
submissions with `<path>`, read by `runs.read_run`; file order within a topic is the rank.

Paths are put in canonical form (every step with `[n]`) so that they meet the qrels' paths;
a path that is not an INEX path is an error at its line. With a collection, every result must
name an element of its article, and its span is returned for the measures that count characters.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.convert import Collection
from focal.evaluation.formats.elements.qrels import canonical_path
from focal.evaluation.formats.fol.runs import read_run
from focal.evaluation.formats.records import Run
from focal.evaluation.text.paths import PathError

Spans = dict[tuple[str, str], tuple[int, int]]


def read_element_run(path: str | Path, collection: Collection | None = None) -> tuple[Run, Spans]:
    """The run with canonical paths, and the spans of its elements when `collection` is given.

    Raises FormatError naming the run file and line for a run of another kind, a bad path, an
    article missing from the collection or a path not in its article.
    """
    run = read_run(path, "element")
    spans: Spans = {}
    for topic, results in run.topics.items():
        canonical = []
        for result in results:
            raw = result.path or ""
            try:
                element_path = canonical_path(raw)
            except PathError:
                raise FormatError(
                    run.file, result.line, f"expected an INEX element path, found {raw!r}"
                ) from None
            if collection is not None and (result.article, element_path) not in spans:
                document = collection.document(result.article, run.file, result.line)
                try:
                    spans[result.article, element_path] = document.span(element_path)
                except PathError:
                    raise FormatError(
                        run.file,
                        result.line,
                        f"no element {element_path} in article {result.article}",
                    ) from None
            canonical.append(result if raw == element_path else replace(result, path=element_path))
        run.topics[topic] = canonical
    return run, spans
