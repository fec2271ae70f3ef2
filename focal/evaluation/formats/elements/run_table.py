"""An element run read by pyarrow's CSV reader (spec section 5): integer columns, no record per
result, for the element measures on columns (`measures.elements.run_columns`).

    topic Q0 article rank score run-id /article[1]/sec[2]

`read_element_table(path)` takes this path only when its answer cannot differ from the careful
reader's (`runs.read_element_run` without a collection): the conditions of the FOL fast path
(`fol.arrow_table`: single spaces, ASCII ids within their lengths, one run id, each topic one
block, ranks within 32 bits, finite scores), with seven fields instead of eight, and every path
printable ASCII with a canonical form. For any other file it returns None and the caller reads
the file carefully, which accepts it or names the file and line of the first problem.

Articles and paths are numbered by their distinct values (first-seen order), so Python touches
each distinct value once: paths are put in canonical form there (two spellings of one element
become one path name).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from focal.evaluation.formats.arrow_columns import dictionary_codes
from focal.evaluation.formats.elements.qrels import canonical_path
from focal.evaluation.formats.fol.arrow_table import ELEMENT_COLUMNS, checked_run, parse_fol
from focal.evaluation.formats.source import read_bytes
from focal.evaluation.text.paths import PathError

Codes = npt.NDArray[np.int32]


@dataclass(frozen=True)
class ElementTable:
    """An element run's results in file order. Result i is article `article_names[articles[i]]`,
    element `path_names[paths[i]]` (canonical); topic `topics[b]` holds results `firsts[b]` up
    to `firsts[b + 1]` (or the end), in rank order."""

    run_id: str
    file: str
    topics: list[str]
    firsts: npt.NDArray[np.int64]
    articles: Codes
    article_names: list[str]
    paths: Codes
    path_names: list[str]
    scores: npt.NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.scores)


def read_element_table(path: str | Path) -> ElementTable | None:
    """The table of the element run at `path`, or None for the careful reader (see above); an
    unreadable file is a FormatError, as for the careful reader."""
    parsed = parse_fol(read_bytes(path), ELEMENT_COLUMNS)
    if parsed is None:
        return None
    try:
        checked = checked_run(parsed, texts=("path",))
        if checked is None:
            return None
        written, paths = dictionary_codes(checked.columns["path"])
        canonical = list(map(canonical_path, written))  # PathError: the careful reader names it
        names, articles = dictionary_codes(checked.columns["article"])
    except (pa.ArrowException, UnicodeDecodeError, ValueError, PathError):
        return None
    return ElementTable(
        checked.run_id, str(path), checked.topics, checked.firsts, articles, names, paths,
        canonical, checked.scores,
    )  # fmt: skip
