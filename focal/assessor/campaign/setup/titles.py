"""An article's title, for the pool list: found in the parsed article, by the kind of its root.

The collections Focal assesses name their articles in different places:
- INEX Wikipedia 2006-2008: `<article><name id="...">Title</name>` (the root's `name` child);
  INEX 2009-2010 and our demo collection: `<article><header><title>`; small test articles:
  `<article><title>`.
- JATS (eLife): `<article><front>...<article-title>` (the first `article-title` in `front`).
- The Shakespeare plays: `<play><head><title>`.

The title is the element's text (the same text the assessor reads: `focal.evaluation.text`), with
runs of whitespace collapsed to one space, and cut to `TITLE_LENGTH` characters (with an
ellipsis) so that a pathological file cannot swell the pool list. No title element, or an
empty one, gives None; the pool list then shows the article id.
"""

from __future__ import annotations

from focal.assessor.store.models import TITLE_LENGTH
from focal.evaluation.text.document import Document

# Paths below the root, tried in this order; the first with some text wins.
TITLE_PATHS = ("name[1]", "title[1]", "header[1]/title[1]", "head[1]/title[1]")
JATS_FRONT = "front[1]"
JATS_TITLE = "article-title"


def collapse(text: str, limit: int = TITLE_LENGTH) -> str:
    """`text` with whitespace runs made one space, stripped, and at most `limit` characters."""
    words = " ".join(text.split())
    if len(words) <= limit:
        return words
    return words[: limit - 1].rstrip() + "…"


def article_title(document: Document) -> str | None:
    """The title of a parsed article (see the module notes), or None when it has none."""
    if not document.elements:
        return None
    root = document.elements[0].path
    for relative in TITLE_PATHS:
        title = _text_at(document, f"{root}/{relative}")
        if title:
            return title
    front = f"{root}/{JATS_FRONT}/"
    for element in document.elements:
        if element.tag == JATS_TITLE and element.path.startswith(front):
            title = collapse(document.text[element.start : element.end])
            if title:
                return title
    return None


def _text_at(document: Document, path: str) -> str | None:
    try:
        start, end = document.span(path)
    except KeyError:
        return None
    return collapse(document.text[start:end]) or None
