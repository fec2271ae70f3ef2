"""XML article → HTML for the assessment screen, with every text node verbatim and in order.

The page's script maps a selection to offsets by walking the text nodes of `#document`, so the
rendered HTML must contain exactly the document's text (spec section 1), nothing more, nothing
less, and in the same order. That holds by construction: the renderer emits the strings of
`evaluation.text.document.text_events`, the same walk `Document` builds its text from. The rest is
defence in depth for what an HTML parser would otherwise change:

- only `<div>` and `<span>` are emitted: no tag that the HTML tree builder treats specially
  (`<pre>` and `<textarea>` drop a leading newline, `<p>` closes on block content, `<table>`
  moves text out of it, `<script>`/`<style>` are raw text);
- no attribute of the source document reaches the page: each element gets only its INEX path
  (`data-path`) and a class derived from its tag, both escaped;
- text is escaped, and a carriage return becomes `&#13;` because an HTML parser turns a literal
  CR (and CRLF) into LF before tokenising, while a character reference survives as U+000D.

Presentational text (list bullets, heading numbers, labels) must come from CSS only.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from lxml import etree
from markupsafe import Markup, escape

from evaluation.text.document import Document, Element, document_id, text_events
from evaluation.text.xmlsafe import parse_xml

# Local names (lower case, prefix dropped) rendered as <div>: the structure an assessor reads as
# paragraphs and sections. INEX Wikipedia, the Shakespeare markup, JATS (eLife) and the demo.
_BLOCK_TAG_NAMES = """
    article bdy body bm fm front back header sec ss ss1 ss2 ss3 ss4 section subsection
    p para ip ip1 ip2 ip3 ip4 ip5 item-none bq blockquote quote-block
    title st atl fnm h h1 h2 h3 h4 h5 h6 head heading subtitle label caption
    list entry item list-item li ul ol dl dt dd numeric-list bullet-list
    table table-wrap tgroup thead tbody tfoot row tr td th colspec
    fig figure graphic media disp-formula disp-quote statement boxed-text
    ref ref-list fn fn-group ack app app-group notes glossary def-list def-item def
    abstract kwd-group article-meta journal-meta contrib-group aff author-notes
    play personae pgroup persona act scene prologue epilogue induct speech line stagedir
    speaker playsubt scndescr text note shortname image
    kwd contrib aff element-citation mixed-citation sub-article front-stub permissions license
    license-p title-group article-categories funding-group award-group supplementary-material
    history custom-meta-group corresp table-wrap-foot fig-group chem-struct-wrap
"""
BLOCK_TAGS = frozenset(_BLOCK_TAG_NAMES.split())

_UNSAFE_CLASS_CHARACTERS = re.compile(r"[^a-z0-9_-]+")


def local_name(tag: str) -> str:
    """The tag without namespace or prefix, lower case: `mml:math` → `math`."""
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def tag_class(tag: str) -> str:
    """A CSS class for a source tag: `x-` plus the sanitised qualified name.

    The prefix keeps source tags apart from the page's own classes (a source `<highlight>` must
    not pick up the page's highlight style).

    >>> tag_class("mml:math"), tag_class("{urn:x}Table-Wrap"), tag_class('p" onclick="x')
    ('x-mml-math', 'x-table-wrap', 'x-p-onclick-x')
    """
    name = tag.rsplit("}", 1)[-1].lower()
    return "x-" + (_UNSAFE_CLASS_CHARACTERS.sub("-", name).strip("-") or "element")


def render_events(root: etree._Element, elements: Sequence[Element]) -> str:
    """The HTML of `root`'s content, given the element table `Document` built from the same root.

    One pass, pieces joined once: Hamlet (240 K characters) renders in a few tens of ms.
    """
    pieces: list[str] = []
    append = pieces.append
    closers: list[str] = []
    index = 0
    for kind, item, _offset in text_events(root):
        if isinstance(item, str):
            append(_escape_text(item))
        elif kind == "start":
            element = elements[index]
            index += 1
            html_tag = "div" if local_name(element.tag) in BLOCK_TAGS else "span"
            append(
                f'<{html_tag} class="{escape(tag_class(element.tag))}" '
                f'data-path="{escape(element.path)}">'
            )
            closers.append(f"</{html_tag}>")
        else:
            append(closers.pop())
    if index != len(elements):
        raise ValueError(f"element table has {len(elements)} elements, the tree {index}")
    return "".join(pieces)


def _escape_text(text: str) -> str:
    escaped = str(escape(text))
    return escaped.replace("\r", "&#13;") if "\r" in escaped else escaped


def render_document(source: Path | bytes, doc_id: str | None = None) -> tuple[Markup, Document]:
    """Parse an article safely once; return its HTML (content of `#document`) and `Document`."""
    if isinstance(source, bytes):
        data, name = source, doc_id or "<bytes>"
    else:
        data, name = source.read_bytes(), str(source)
    root = parse_xml(data, name=name).getroot()
    document = Document(doc_id or document_id(name), root)
    return Markup(render_events(root, document.elements)), document


@lru_cache(maxsize=64)
def _render_cached(path: str, _mtime_ns: int, _size: int) -> tuple[Markup, Document]:
    return render_document(Path(path))


def render_file(path: Path) -> tuple[Markup, Document]:
    """`render_document` for a file, cached per (path, modification time, size)."""
    stat = path.stat()
    return _render_cached(str(path), stat.st_mtime_ns, stat.st_size)
