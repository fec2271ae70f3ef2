"""Safe XML parsing: no network, no DTD loading, no entity expansion (spec section 1).

Every XML file Focal reads goes through `parse_xml`. It accepts what real collections contain
(an external DOCTYPE such as eLife's JATS one, which is recorded but never fetched; the five
predefined entities; character references; CDATA; comments; processing instructions) and refuses
everything that would make the text depend on something outside the file or blow up in memory:

- a reference to any entity other than `&lt; &gt; &amp; &apos; &quot;` (undeclared, declared in
  the internal subset, or external);
- any entity declaration in the internal subset (general or parameter), except a redeclaration of
  a predefined entity with its predefined meaning. libxml2 itself drops an *invalid*
  redeclaration of a predefined entity with a warning and keeps the predefined meaning, which is
  what the INEX 2010 topic file (which declares `lt` as "lessthan") needs.

libxml2's entity amplification limit (kept on by `huge_tree=False`) stops billion laughs during
the parse; the checks after the parse make sure that nothing entity-shaped survives in the tree.
"""

from __future__ import annotations

import re
import stat
from pathlib import Path
from typing import Any

from lxml import etree

from focal.evaluation.errors import FormatError

PREDEFINED_ENTITIES = frozenset({"lt", "gt", "amp", "apos", "quot"})

# libxml2 reports a reference to an undeclared entity as a warning when the document has an
# external subset it did not load (the entity might have been declared there), as an error
# otherwise. Both are refusals for Focal.
_UNDECLARED_ENTITY_ERRORS = frozenset({"WAR_UNDECLARED_ENTITY", "ERR_UNDECLARED_ENTITY"})


class DocumentError(FormatError):
    """An XML document that Focal refuses to read (not well-formed, or unsafe), with file and line.

    >>> str(DocumentError("a.xml", 3, "undefined entity &nbsp;"))
    'a.xml:3: undefined entity &nbsp;'
    """


def safe_parser() -> etree.XMLParser:
    """A fresh lxml parser that never touches the network, the DTD or external entities."""
    return etree.XMLParser(
        no_network=True,
        load_dtd=False,
        resolve_entities=False,
        dtd_validation=False,
        huge_tree=False,
        remove_blank_text=False,  # whitespace-only text nodes are part of the text
        strip_cdata=True,  # CDATA becomes ordinary text (merged with its neighbours)
    )


def read_regular_file(path: Path, label: str) -> bytes:
    """The bytes of `path`, which must be a regular file: reading a FIFO or a device named like
    an input file would wait forever (or never end), so those are refused before opening."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise DocumentError(label, None, "is not a regular file (a FIFO, device or folder)")
        return path.read_bytes()
    except OSError as error:
        raise DocumentError(label, None, f"cannot read file: {error.strerror}") from None


def parse_xml(source: Path | str | bytes, name: str | None = None) -> etree._ElementTree:
    """Parse an XML file (a path) or XML bytes safely, or raise `DocumentError`.

    `name` is used in error messages (default: the path, or `<bytes>`). A `str` is a path, never
    XML text: pass bytes for content.

    >>> parse_xml(b"<a>x &amp; y &#x263A;</a>").getroot().text
    'x & y ☺'
    >>> try:
    ...     parse_xml(b"<a>\\n&nbsp;</a>", name="t.xml")
    ... except DocumentError as error:
    ...     print(error.file, error.line)
    t.xml 2
    """
    if isinstance(source, bytes):
        data, label = source, name or "<bytes>"
    else:
        label = name or str(source)
        data = read_regular_file(Path(source), label)
    parser = safe_parser()
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as error:
        if getattr(error, "code", None) == etree.ErrorTypes.ERR_UNDECLARED_ENTITY:
            raise DocumentError(label, error.lineno, _entity_message(error.msg or "")) from None
        message = error.msg or "not well-formed"
        # lxml appends ", line L, column C" to the message; the line goes in front instead.
        # Some of libxml2's messages end in a newline: an error is one line.
        message = " ".join(re.sub(r", line \d+, column \d+\s*$", "", message).split())
        raise DocumentError(label, error.lineno, f"not well-formed XML: {message}") from None
    if root is None:  # pragma: no cover - lxml raises for an empty document
        raise DocumentError(label, None, "no root element")
    tree = root.getroottree()
    _refuse_entities(tree, parser, data, label)
    return tree


def _refuse_entities(
    tree: etree._ElementTree, parser: etree.XMLParser, data: bytes, label: str
) -> None:
    for entry in parser.error_log:
        if entry.type_name in _UNDECLARED_ENTITY_ERRORS:
            raise DocumentError(label, entry.line, f"{_entity_message(entry.message)}")
    internal_subset = tree.docinfo.internalDTD
    if internal_subset is not None:
        declarations: list[Any] = list(internal_subset.entities())  # type: ignore[attr-defined]
        for declaration in declarations:
            name = declaration.name or "?"
            if name in PREDEFINED_ENTITIES and declaration.content is not None:
                continue  # a valid redeclaration keeps the predefined meaning
            raise DocumentError(
                label,
                _declaration_line(data, name),
                f"entity declaration <!ENTITY {name} ...> refused: Focal expands only the five "
                "predefined entities and character references",
            )
    for reference in tree.getroot().iter(etree.Entity):
        raise DocumentError(
            label,
            _source_line(reference),
            f"entity reference {reference.text} refused: only the five predefined entities and "
            "character references are allowed",
        )


def _entity_message(libxml_message: str) -> str:
    found = re.search(r"Entity '([^']*)'", libxml_message)
    name = found.group(1) if found else "?"
    return (
        f"undefined entity &{name}; (only the five predefined entities and character "
        "references are allowed; DTDs are never loaded)"
    )


def _declaration_line(data: bytes, name: str) -> int | None:
    """The line of `<!ENTITY name` in the raw bytes (ASCII-compatible encodings only)."""
    pattern = rb"<!ENTITY\s+(?:%\s+)?" + re.escape(name.encode("utf-8", "replace")) + rb"\s"
    found = re.search(pattern, data)
    if found is None:
        return None
    return data.count(b"\n", 0, found.start()) + 1


def _source_line(node: etree._Element) -> int | None:
    line: object = node.sourceline  # the stubs leave it untyped
    return line if isinstance(line, int) else None
