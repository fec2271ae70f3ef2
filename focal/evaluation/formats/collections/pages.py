"""HTML pages and plain text files, one document a file (docs/collections.md, "HTML", "Text").

An HTML page is parsed by lxml's HTML parser (never the network, comments and processing
instructions dropped), as UTF-8 unless it declares another encoding. Its title is `<title>`'s
text, trimmed; its body is the visible text of `<body>` in document order, verbatim as the
parser gives it (entities decoded, CRLF read as LF as every HTML parser does): `<script>`,
`<style>`, `<template>`, `<noscript>`, and elements with the `hidden` attribute are dropped
with their content. Headings and paragraph-like elements (`ELEMENT_TAGS`) become elements of
the same name, nested as in the page; every other tag leaves only its text.

A plain text file is UTF-8 text, verbatim (a byte-order mark dropped, CRLF kept); it has no
title; its paragraphs (text between blank lines) are `<p>` elements. Either way the id is the
file name without its extension.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lxml import etree, html

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.documents import (
    SourceDocument,
    append_text,
    build_tree,
    checked_id,
    start_tree,
    xml_safe,
)
from focal.evaluation.formats.collections.lines import file_text, opened

ELEMENT_TAGS = frozenset(
    [
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "li",
        "dt",
        "dd",
        "blockquote",
        "pre",
        "td",
        "th",
        "caption",
        "figcaption",
    ]
)
DROPPED_TAGS = frozenset(["script", "style", "template", "noscript", "head", "title"])
HTML_SUFFIXES = (".html", ".htm")
TEXT_SUFFIXES = (".txt",)


_DECLARED = re.compile(rb"<meta[^>]*charset", re.IGNORECASE)


def _parser(data: bytes) -> html.HTMLParser:
    """lxml's HTML parser, never the network; UTF-8 unless the page declares its encoding (a
    `<meta charset>` or a byte-order mark) or is not UTF-8 (then as lxml guesses, as browsers)."""
    encoding: str | None = None
    if not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) and not _DECLARED.search(
        data[:4096]
    ):
        try:
            data.decode("utf-8")
            encoding = "utf-8"
        except UnicodeDecodeError:
            encoding = None
    return html.HTMLParser(
        no_network=True, remove_comments=True, remove_pis=True, encoding=encoding
    )


def _page_bytes(path: Path) -> bytes:
    with opened(path) as stream:
        try:
            return stream.read()
        except OSError as error:
            raise FormatError(path, None, f"cannot read the file ({error})") from error


def page_tree(data: bytes, name: str) -> etree._Element:
    """The tree of an HTML page in Focal's text model (title, body, headings, paragraphs)."""
    if not data.strip():
        raise FormatError(name, None, "expected an HTML page, found an empty file")
    try:
        page = html.document_fromstring(data, parser=_parser(data))
    except (etree.ParserError, ValueError) as error:
        raise FormatError(name, None, f"expected an HTML page ({error})") from None
    titles = page.findall(".//title")
    title = "".join(str(piece) for piece in titles[0].itertext()).strip() if titles else None
    root, body = start_tree(title)
    source = page.find("body")
    if source is None:
        return root
    targets = [body]  # the output element that receives text, for each open source element
    walk = etree.iterwalk(source, events=("start", "end"))
    for event, element in walk:
        if event == "start":
            if not isinstance(element.tag, str) or _dropped(element):
                walk.skip_subtree()
                targets.append(targets[-1])  # its "end" still comes: pops this, adds the tail
                continue
            target = targets[-1]
            if element.tag in ELEMENT_TAGS and element is not source:
                target = etree.SubElement(target, str(element.tag))
            targets.append(target)
            append_text(target, xml_safe(element.text or ""))
        else:
            targets.pop()
            if element is not source and element.tail:
                append_text(targets[-1], xml_safe(element.tail))
    return root


def _dropped(element: etree._Element) -> bool:
    return element.tag in DROPPED_TAGS or element.get("hidden") is not None


def read_page(path: str | Path) -> SourceDocument:
    """One HTML page as a document, its id the file name without the extension."""
    file = Path(path)
    name = str(file)
    return SourceDocument(
        checked_id(file.stem, name, None), page_tree(_page_bytes(file), name), name, None
    )


def read_text_file(path: str | Path) -> SourceDocument:
    """One plain text file as a document, its id the file name without the extension."""
    file = Path(path)
    name = str(file)
    return SourceDocument(checked_id(file.stem, name, None), build_tree(None, file_text(file)),
                          name, None)  # fmt: skip


def read_folder(path: str | Path, suffixes: tuple[str, ...]) -> Iterator[SourceDocument]:
    """Every file of a folder with one of `suffixes`, in name order, as documents."""
    folder = Path(path)
    files = sorted(p for p in folder.iterdir() if p.name.lower().endswith(suffixes))
    if not files:
        raise FormatError(folder, None, f"contains no {' or '.join(suffixes)} files")
    read = read_page if suffixes == HTML_SUFFIXES else read_text_file
    for file in files:
        yield read(file)
