"""`focal doc`: look at a document through Focal's text model.

    focal doc text FILE            the exact text (UTF-8, nothing added, no final newline)
    focal doc elements FILE        path<TAB>start<TAB>end per element, in document order

FILE is an XML article or a collection in another format (`--format`, `--id DOC` for one
document of several; docs/collections.md).
    focal doc locate FILE PATH     "offset length" of an element or text node (a point: length 0)
    focal doc locate FILE START END  "offset length" of the passage between two points

Errors (unreadable, malformed or unsafe XML, unknown path) are one line on stderr naming the
file, and exit code 2.
"""

from __future__ import annotations

from pathlib import Path

import click

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.detect import FORMATS
from focal.evaluation.text.document import Document, PathError, load_document

FILE = click.argument("file", type=click.Path(dir_okay=False, path_type=Path))


def _fail(message: str) -> None:
    click.echo(" ".join(message.split()), err=True)  # one line, whatever the message holds
    raise click.exceptions.Exit(2)


def _load(file: Path, format_name: str | None = None, doc_id: str | None = None) -> Document:
    """The document in FILE: an XML article, or one document of a collection in another
    format (docs/collections.md), the one with id `doc_id` or the only one."""
    from focal.evaluation.formats.collections.detect import (
        checked_format,
        detect_format,
        find_document,
    )

    try:
        if format_name is not None:
            found = checked_format(format_name)
        else:
            try:
                found = detect_format(file)
            except FormatError:
                found = "xml"  # any other file is read as XML, as before
        if found == "xml":
            return load_document(file)
        return find_document(file, doc_id, found).document()
    except FormatError as error:  # DocumentError is one
        _fail(str(error))
        raise  # unreachable: _fail exits


FORMAT = click.option(
    "--format",
    "format_name",
    type=click.Choice(FORMATS),
    help="FILE's format (default: from its name or content; docs/collections.md).",
)
DOC_ID = click.option("--id", "doc_id", help="The document's id, in a file of several documents.")


@click.group("doc")
def doc() -> None:
    """Print a document's text, element table or the offsets of a path."""


@doc.command("text")
@FILE
@FORMAT
@DOC_ID
def text_command(file: Path, format_name: str | None, doc_id: str | None) -> None:
    """Print the document's text exactly: UTF-8, no newline added."""
    # bytes go to the binary stream untouched: no newline translation, no added newline
    click.echo(_load(file, format_name, doc_id).text.encode("utf-8"), nl=False)


@doc.command("elements")
@FILE
@FORMAT
@DOC_ID
def elements_command(file: Path, format_name: str | None, doc_id: str | None) -> None:
    """Print path, start and end (code points) of every element, tab-separated."""
    document = _load(file, format_name, doc_id)
    lines = (f"{e.path}\t{e.start}\t{e.end}\n" for e in document.elements)
    click.echo("".join(lines).encode("utf-8"), nl=False)


@doc.command("locate")
@FILE
@click.argument("path")
@click.argument("end", required=False)
def locate_command(file: Path, path: str, end: str | None) -> None:
    """Print "offset length" of PATH, or of the passage from point PATH to point END.

    PATH is an element path (/article[1]/bdy[1]/sec[2]) or a text node (.../p[1]/text()[2]);
    points may add a character offset: /article[1]/bdy[1]/p[3].25 or .../p[3]/text()[1].4.
    """
    document = _load(file)
    try:
        if end is not None:
            offset, length = document.range_to_fol(path, end)
        else:
            offset, length = document.locate(path)
    except PathError as error:
        _fail(f"{file}: {error}")
    click.echo(f"{offset} {length}")
