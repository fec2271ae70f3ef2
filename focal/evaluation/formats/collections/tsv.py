"""Tab-separated collections: `docid<TAB>text` or `docid<TAB>title<TAB>text` a line.

(docs/collections.md, "TSV".) The first line's number of fields (2 or 3) fixes the layout;
a first line whose fields are names (`docid`|`id`|`_id`, then `title`, then
`text`|`contents`|`body`) is a header and says the layout. The line end (LF or CRLF) is not
part of the text; nothing else is changed (MS MARCO's passages are plain text, not escaped).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.documents import SourceDocument, build_tree, checked_id
from focal.evaluation.formats.collections.lines import numbered_lines

_ID_NAMES = {"docid", "id", "_id", "pid"}
_TEXT_NAMES = {"text", "contents", "body", "passage"}


def _is_header(fields: list[str]) -> bool:
    names = [field.strip().lower() for field in fields]
    return (
        len(names) in (2, 3)
        and names[0] in _ID_NAMES
        and names[-1] in _TEXT_NAMES
        and (len(names) == 2 or names[1] == "title")
    )


def read_tsv(path: str | Path) -> Iterator[SourceDocument]:
    """The documents of a TSV file (gzip read as is), one at a time."""
    name = str(path)
    width = 0
    for number, line in numbered_lines(path):
        line = line.removesuffix("\n").removesuffix("\r")
        if not line:
            continue
        fields = line.split("\t")
        if not width:
            width = len(fields)
            if width not in (2, 3):
                raise FormatError(
                    name, number, f"expected docid<TAB>text or docid<TAB>title<TAB>text, "
                    f"found {width} field(s)"
                )  # fmt: skip
            if _is_header(fields):
                continue
        if len(fields) != width:
            layout = "docid, title, text" if width == 3 else "docid, text"
            raise FormatError(
                name, number, f"expected {width} tab-separated fields ({layout}), "
                f"found {len(fields)}"
            )  # fmt: skip
        title = fields[1] if width == 3 else None
        yield SourceDocument(
            checked_id(fields[0], name, number), build_tree(title, fields[-1]), name, number
        )
