"""Reading back what the assessor's page shows inside `<div id="document">`, for the rendering
tests: the text, the tags and the attributes, as a browser's HTML parser would see them."""

from __future__ import annotations

from html.parser import HTMLParser


class DocumentReader(HTMLParser):
    """The text pieces, tags and attributes (name, value) inside `<div id="document">`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.pieces: list[str] = []
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.depth:
            self.depth += 1
            self.tags.add(tag)
            self.attributes.extend(attrs)
        elif ("id", "document") in attrs:
            self.depth = 1

    def handle_endtag(self, tag: str) -> None:
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.pieces.append(data)


def page(fragment: str) -> str:
    """`fragment` as the document of a whole page."""
    return (
        f'<!doctype html><html><body><main><div id="document">{fragment}</div></main></body></html>'
    )


def read_page(fragment: str) -> DocumentReader:
    """What the parser finds inside #document of `page(fragment)`."""
    reader = DocumentReader()
    reader.feed(page(fragment))
    reader.close()
    return reader
