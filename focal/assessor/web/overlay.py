"""One article with two assessors' highlights and best entry points overlaid (spec section 7).

The article is rendered as on the assessment screen (`rendering`: the same `<div>`/`<span>`
elements carrying their INEX paths, every text node verbatim and in order), and each text node is
cut where a passage of either assessor starts or ends: a piece highlighted by the first
assessor only is `<mark class="by-a">`, by the second only `by-b`, by both `by-both`. A best
entry point is an empty `<span class="bep bep-a">` (or `bep-b`) before the character it points
at, drawn by CSS; the page's text is exactly the document's text.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from markupsafe import Markup, escape

from focal.assessor.web.rendering import BLOCK_TAGS, local_name, tag_class
from focal.evaluation.formats.records import Span
from focal.evaluation.text.document import text_events
from focal.evaluation.text.xmlsafe import parse_xml

SIDES = ("a", "b")


def _inside(spans: Sequence[Span], offset: int) -> bool:
    """True when `offset` is in one of the sorted, disjoint `spans`."""
    index = bisect_right([start for start, _ in spans], offset) - 1
    return index >= 0 and offset < spans[index][1]


def _marker(side: str, name: str) -> str:
    label = escape(f"best entry point of {name}")
    return f'<span class="bep bep-{side}" role="img" aria-label="{label}" title="{label}"></span>'


def _text(text: str) -> str:
    escaped = str(escape(text))
    return escaped.replace("\r", "&#13;") if "\r" in escaped else escaped


def render_overlay(
    path: Path,
    passages: tuple[Sequence[Span], Sequence[Span]],
    beps: tuple[int | None, int | None],
    names: tuple[str, str],
) -> Markup:
    """The HTML of the article at `path` with both assessors' passages and BEPs marked.

    `passages` are each assessor's sorted, disjoint spans; a BEP at or past the end of the text
    is drawn after its last character.
    """
    root = parse_xml(path.read_bytes(), name=str(path)).getroot()
    spans = (sorted(passages[0]), sorted(passages[1]))
    cuts = sorted({offset for side in spans for span in side for offset in span})
    markers: dict[int, list[str]] = {}
    for side, bep, name in zip(SIDES, beps, names, strict=True):
        if bep is not None:
            markers.setdefault(max(bep, 0), []).append(_marker(side, name))
    pieces: list[str] = []
    closers: list[str] = []
    end = 0
    for kind, item, offset in text_events(root):
        if isinstance(item, str):
            pieces.append(_marked(item, offset, spans, cuts, markers))
            end = offset + len(item)
        elif kind == "start":
            html_tag = "div" if local_name(item.tag) in BLOCK_TAGS else "span"
            pieces.append(f'<{html_tag} class="{escape(tag_class(item.tag))}">')
            closers.append(f"</{html_tag}>")
        else:
            pieces.append(closers.pop())
    late = [marker for offset, items in markers.items() if offset >= end for marker in items]
    return Markup("".join(pieces[:-1] + late + pieces[-1:]))


def _marked(
    text: str,
    offset: int,
    spans: tuple[Sequence[Span], Sequence[Span]],
    cuts: Sequence[int],
    markers: dict[int, list[str]],
) -> str:
    """One text node cut at passage boundaries and BEPs, each piece marked by who chose it."""
    end = offset + len(text)
    points = {offset, end}
    points.update(cut for cut in cuts if offset < cut < end)
    points.update(bep for bep in markers if offset < bep < end)
    out: list[str] = []
    bounds = sorted(points)
    for start, stop in pairwise(bounds):
        out.extend(markers.get(start, ()))
        piece = _text(text[start - offset : stop - offset])
        a, b = _inside(spans[0], start), _inside(spans[1], start)
        if a or b:
            side = "both" if a and b else ("a" if a else "b")
            out.append(f'<mark class="by-{side}">{piece}</mark>')
        else:
            out.append(piece)
    return "".join(out)


def describe_bep(text: str | None, bep: int | None, words: int = 5) -> str:
    """A best entry point in words: the words it stands before and where, or "not set".

    >>> describe_bep("The quick brown fox jumps over the lazy dog.", 4, words=3)
    'before “quick brown fox…” (character 4 of 44)'
    >>> describe_bep(None, 4), describe_bep("text", None)
    ('at character 4', 'not set')
    """
    if bep is None:
        return "not set"
    if text is None:
        return f"at character {bep}"
    following = text[bep:].split()
    if not following:
        return f"at the end of the text (character {bep} of {len(text)})"
    more = "…" if len(following) > words else ""
    return f"before “{' '.join(following[:words])}{more}” (character {bep} of {len(text)})"
