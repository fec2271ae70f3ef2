"""XML article → HTML for the assessment screen, with every text node verbatim and in order.

The page's script maps a selection to offsets by walking the text nodes of `#document`, so the
rendered HTML must contain exactly the document's text (spec section 1), nothing more, nothing
less, and in the same order. That holds by construction: the renderer emits the strings of
`focal.evaluation.text.document.text_events`, the same walk `Document` builds its text from. The
rest is defence in depth for what an HTML parser would otherwise change:

- only `<div>` and `<span>` are emitted: no tag that the HTML tree builder treats specially
  (`<pre>` and `<textarea>` drop a leading newline, `<p>` closes on block content, `<table>`
  moves text out of it, `<script>`/`<style>` are raw text);
- no attribute of the source document reaches the page except the allow-listed `data-`
  attributes a profile asks for (escaped): each element gets its INEX path (`data-path`) and
  classes derived from its tag and the profile, all escaped;
- text is escaped, and a carriage return becomes `&#13;` because an HTML parser turns a literal
  CR (and CRLF) into LF before tokenising, while a character reference survives as U+000D.

Presentational text (list bullets, heading numbers, labels) must come from CSS only. A display
profile (`focal.assessor.campaign.setup.profiles`, docs/profiles.md) chooses `<div>` or `<span>`,
classes, heading roles and a few allow-listed `data-` attributes per element; never the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from lxml import etree
from markupsafe import Markup, escape

from focal.assessor.campaign.setup.profiles import (
    DATA_ATTRIBUTES,
    FOLDING,
    MAX_DATA_VALUE,
    Profile,
    detect_profile,
    get_profile,
)
from focal.evaluation.text.document import Document, Element, document_id, text_events
from focal.evaluation.text.xmlsafe import parse_xml

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


class _Presenter:
    """Presents each element as the first matching rule of a display profile says.

    Carries over only `DATA_ATTRIBUTES` (escaped, cut to `MAX_DATA_VALUE` characters), plus
    `role`/`aria-level` for headings and the profile's own fold label; classes are sanitised.
    A `changes_only` value (a speaker) is carried only when it differs from the last one the same
    rule carried among the element's siblings.
    """

    def __init__(self, profile: Profile) -> None:
        self.profile = profile
        self.names: list[str] = []  # local names of the open elements
        self.nesting: dict[str, int] = {}  # how many elements of each local name are open
        self.carried: list[dict[tuple[int, str], str] | None] = [None]

    def open(self, item: etree._Element, element: Element) -> tuple[str, str]:
        """The HTML tag and attributes of `item` (its row in the element table: `element`)."""
        tag = local_name(element.tag)
        classes = tag_class(element.tag)
        if not self.names:
            classes += " pf-profile-" + _UNSAFE_CLASS_CHARACTERS.sub("-", self.profile.name.lower())
        extra = ""
        found = self.profile.rule_for(tag, self.names[-1] if self.names else None, item)
        if found is None:
            html_tag = "div" if tag in BLOCK_TAGS else "span"
        else:
            position, rule = found
            html_tag = "span" if rule.display == "inline" else "div"
            classes += f" pf-{rule.display}"
            if rule.css_class:
                classes += " pf-" + _UNSAFE_CLASS_CHARACTERS.sub("-", rule.css_class.lower())
            if rule.display == "heading":
                level = min(6, rule.level + (self.nesting.get(rule.nest, 0) if rule.nest else 0))
                classes += f" pf-h{level}"
                extra += f' role="heading" aria-level="{level}"'
            if rule.label and rule.display in FOLDING:
                extra += f' data-fold="{escape(rule.label)}"'
            for name, source in rule.data:
                value = item.get(source)
                if value is None or name not in DATA_ATTRIBUTES:
                    continue
                value = value[:MAX_DATA_VALUE]
                if name in rule.changes_only:
                    memory = self.carried[-1]
                    if memory is None:
                        memory = self.carried[-1] = {}
                    if memory.get((position, name)) == value:
                        continue
                    memory[(position, name)] = value
                extra += f' data-{name}="{escape(value)}"'
        self.names.append(tag)
        self.nesting[tag] = self.nesting.get(tag, 0) + 1
        self.carried.append(None)
        return html_tag, f'class="{classes}" data-path="{escape(element.path)}"{extra}'

    def close(self) -> None:
        """The last opened element closes."""
        self.nesting[self.names.pop()] -= 1
        self.carried.pop()


def render_events(
    root: etree._Element, elements: Sequence[Element], profile: Profile | None = None
) -> str:
    """The HTML of `root`'s content, given the element table `Document` built from the same root.

    With a display `profile` that has rules, each element is presented as its first matching
    rule says (`_Presenter`); otherwise `BLOCK_TAGS` are `<div>` and the rest `<span>`. One
    pass, pieces joined once: Hamlet (240 K characters) renders in a few ms.
    """
    pieces: list[str] = []
    append = pieces.append
    closers: list[str] = []
    index = 0
    presenter = _Presenter(profile) if profile is not None and profile.rules else None
    for kind, item, _offset in text_events(root):
        if isinstance(item, str):
            append(_escape_text(item))
        elif kind == "start":
            element = elements[index]
            index += 1
            if presenter is not None:
                html_tag, attributes = presenter.open(item, element)
            else:
                html_tag = "div" if local_name(element.tag) in BLOCK_TAGS else "span"
                attributes = (
                    f'class="{escape(tag_class(element.tag))}" data-path="{escape(element.path)}"'
                )
            append(f"<{html_tag} {attributes}>")
            closers.append(f"</{html_tag}>")
        else:
            if presenter is not None:
                presenter.close()
            append(closers.pop())
    if index != len(elements):
        raise ValueError(f"element table has {len(elements)} elements, the tree {index}")
    return "".join(pieces)


def _escape_text(text: str) -> str:
    escaped = str(escape(text))
    return escaped.replace("\r", "&#13;") if "\r" in escaped else escaped


def render_document(
    source: Path | bytes, doc_id: str | None = None, profile: str | None = None
) -> tuple[Markup, Document]:
    """Parse an article safely once; return its HTML (content of `#document`) and `Document`.

    `profile` names a display profile; None detects one from the root element.
    """
    if isinstance(source, bytes):
        data, name = source, doc_id or "<bytes>"
    else:
        data, name = source.read_bytes(), str(source)
    root = parse_xml(data, name=name).getroot()
    document = Document(doc_id or document_id(name), root)
    chosen = get_profile(profile if profile is not None else detect_profile(root))
    return Markup(render_events(root, document.elements, chosen)), document


@lru_cache(maxsize=64)
def _render_cached(
    path: str, _mtime_ns: int, _size: int, profile: str | None
) -> tuple[Markup, Document]:
    return render_document(Path(path), profile=profile)


def render_file(path: Path, profile: str | None = None) -> tuple[Markup, Document]:
    """`render_document` for a file, cached per (path, modification time, size, profile)."""
    stat = path.stat()
    return _render_cached(str(path), stat.st_mtime_ns, stat.st_size, profile)
