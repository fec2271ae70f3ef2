"""The walk over an lxml tree that defines the text (spec section 1).

`text_events` is the single definition of "the text": `Document` builds its text and element
table from it and the web renderer emits exactly its text strings, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, TypeAlias

from lxml import etree

ElementEvent: TypeAlias = tuple[Literal["start", "end"], etree._Element, int]
TextEvent: TypeAlias = tuple[Literal["text"], str, int]
Event: TypeAlias = ElementEvent | TextEvent


def text_events(root: etree._Element) -> Iterator[Event]:
    """Walk `root` in document order, iteratively (no recursion limit).

    Yields `("start", element, offset)` when an element opens, `("text", string, offset)` for
    every non-empty text node (an element's `text`, or the `tail` of a child element, comment or
    processing instruction; whitespace-only included, nothing normalised) and
    `("end", element, offset)` when it closes. Offsets are code points into the text, which is
    the concatenation of the `"text"` strings. Comments and processing instructions yield no
    event of their own (they carry no text); the root's own tail is outside the document.
    The i-th `"start"` event is `Document.elements[i]`.

    >>> from lxml import etree
    >>> root = etree.fromstring(b"<a>x<b>y</b><!--c-->z</a>")
    >>> [(kind, getattr(item, "tag", item), offset) for kind, item, offset in text_events(root)]
    [('start', 'a', 0), ('text', 'x', 0), ('start', 'b', 1), ('text', 'y', 1), ('end', 'b', 2), \
('text', 'z', 2), ('end', 'a', 3)]
    """
    offset = 0
    yield ("start", root, offset)
    if root.text:
        yield ("text", root.text, offset)
        offset += len(root.text)
    open_elements = [root]
    children = [iter(root)]
    while children:
        child = next(children[-1], None)
        if child is None:
            children.pop()
            closed = open_elements.pop()
            yield ("end", closed, offset)
            tail = closed.tail if children else None
        elif isinstance(child.tag, str):
            yield ("start", child, offset)
            if child.text:
                yield ("text", child.text, offset)
                offset += len(child.text)
            open_elements.append(child)
            children.append(iter(child))
            continue
        else:  # comment, processing instruction (or entity reference): no text of its own
            tail = child.tail
        if tail:
            yield ("text", tail, offset)
            offset += len(tail)
