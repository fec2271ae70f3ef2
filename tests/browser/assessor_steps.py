"""What an assessor does on the assessment screen, as reusable steps for a whole-campaign walk.

An `Assessor` is one logged-in browser page, on a desktop window (mouse) or a phone-sized one
(touch: the selection bar's buttons, grips dragged with a finger). Each gesture waits until the
server has answered and returns what it should have stored, in code points computed from
Python's `Document.text` (the demo collection's files), never from the page script. The
gestures are those of docs/assessor.md ("The assessment screen: gestures").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, Page

from focal.evaluation.text.document import Document

from .campaign_steps import DEMO, Campaign, log_in
from .conftest import Browse, wait_for

DESKTOP: dict[str, Any] = {"viewport": {"width": 1440, "height": 900}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}
WORD = re.compile(r"[\w'’]+")  # the page's word characters (static/assess/words.js)

# JavaScript: the paths of paragraphs whose first child is a text node of many words.
PLAIN_PARAGRAPHS = """() => [...document.querySelectorAll("#document [data-path]")]
    .filter((el) => /\\/p\\[\\d+\\]$/.test(el.dataset.path)
        && el.firstChild?.nodeType === Node.TEXT_NODE
        && el.firstChild.data.trim().split(/\\s+/).length >= 16)
    .map((el) => [el.dataset.path, el.firstChild.data])"""

# JavaScript: viewport points just inside the left edge of UTF-16 units of the first text node
# of an element (by data-path); the first element is scrolled to the middle of the view, clear
# of the sticky action bar. `free`: the point shows the text, not a control drawn over it.
POINTS = """(points) => {
    const at = (path) => document.querySelector(`#document [data-path="${path}"]`);
    at(points[0][0]).scrollIntoView({block: "center"});
    return points.map(([path, units]) => {
        const range = new Range();
        range.setStart(at(path).firstChild, units);
        range.setEnd(at(path).firstChild, units + 1);
        const rect = range.getClientRects()[0];
        const [x, y] = [rect.left + 1, rect.top + rect.height / 2];
        const free = document.getElementById("document").contains(document.elementFromPoint(x, y));
        return {x, y, free};
    });
}"""

# JavaScript: select [from, to) UTF-16 units of the first text node of the element at `path`
# (by data-path; `to` null: to the node's end), as a program does or the handles of a touch
# selection leave it (no mouse-up follows; the page hears of it from `selectionchange`).
SELECT = """([path, from, to]) => {
    const node = document.querySelector(`#document [data-path="${path}"]`).firstChild;
    const range = new Range();
    range.setStart(node, from);
    range.setEnd(node, to ?? node.data.length);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    document.dispatchEvent(new Event("selectionchange"));
}"""

# JavaScript: the mouse-up that ends a selection made with the mouse.
MOUSEUP = """() => document.getElementById("document")
    .dispatchEvent(new MouseEvent("mouseup", {bubbles: true, button: 0}))"""


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


@dataclass
class Paragraph:
    """The first text node of a paragraph: its path, its code-point offset in the document and
    its words of three letters or more, as [start, end) within the node."""

    path: str
    base: int
    text: str
    words: list[tuple[int, int]]

    def span(self, first: int, last: int) -> list[int]:
        """[start, end) in the document of the words `first` to `last`."""
        return [self.base + self.words[first][0], self.base + self.words[last][1]]

    def without_edge_spaces(self, start: int, end: int) -> list[int]:
        """[start, end) of the document (within this node) without whitespace at its ends, as
        the server stores a passage."""
        piece = self.text[start - self.base : end - self.base]
        return [start + len(piece) - len(piece.lstrip()), end - len(piece) + len(piece.rstrip())]

    def into(self, word: int) -> int:
        """The UTF-16 unit of the last letter of `word`: a point inside it, never at its end."""
        return units(self.text[: self.words[word][1] - 1])

    def at(self, word: int) -> int:
        return units(self.text[: self.words[word][0]])


@dataclass
class Judged:
    """What the server should hold for one article: passages and entry point, or not relevant."""

    passages: list[list[int]] = field(default_factory=list)
    bep: int | None = None


class Assessor:
    """One assessor's page; `touch` chooses the phone gestures over the mouse."""

    def __init__(self, page: Page, campaign: Campaign, name: str, touch: bool) -> None:
        self.page, self.campaign, self.name, self.touch = page, campaign, name, touch
        self.judged: dict[str, Judged] = {}
        self.assignment = ""  # the id of the topic's assignment, once opened

    @classmethod
    def log_in(
        cls, browser: Browser, campaign: Campaign, name: str, password: str, window: dict[str, Any]
    ) -> Assessor:
        """`name` logged in through the log-in form, in a window such as DESKTOP or PHONE."""
        page = log_in(browser, campaign, name, password, **window)
        return cls(page, campaign, name, touch=bool(window.get("has_touch")))

    @property
    def article(self) -> str:
        return self.page.url.rsplit("/", 1)[1]

    def document(self, article: str | None = None) -> Document:
        return Document.from_file(DEMO / "collection" / f"{article or self.article}.xml")

    def open_topic(self, topic: str) -> str:
        """From My topics to the topic's pool, then its first unjudged article; its name."""
        self.page.goto(f"{self.campaign.url}/topics")
        self.page.locator("#assignments tr", has_text=topic).locator("a").first.click()
        found = re.search(r"/assignments/(\d+)", self.page.url)
        assert found is not None, self.page.url
        self.assignment = found.group(1)
        self.page.click("text=Judge the first article not judged yet")
        Browse.ready(self.page)
        return self.article

    def paragraphs(self) -> list[Paragraph]:
        """The article's plain paragraphs, checked against the document's own text."""
        document, found = self.document(), []
        for path, text in self.page.evaluate(PLAIN_PARAGRAPHS):
            base = document.span(path)[0]
            assert document.text[base : base + len(text)] == text, path
            words = [m.span() for m in WORD.finditer(text) if m.end() - m.start() >= 3]
            found.append(Paragraph(path, base, text, words))
        assert len(found) >= 2, f"{self.article} has too few plain paragraphs"
        return found

    def points(self, *points: tuple[str, int]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.page.evaluate(POINTS, [list(p) for p in points])
        assert all(point["free"] for point in found), found
        return found

    def stored(self, article: str | None = None) -> dict[str, Any]:
        """The judgement the server holds (through the API, with this assessor's cookies)."""
        url = f"{self.campaign.url}/api/assignments/{self.assignment}/documents/"
        response = self.page.context.request.get(url + (article or self.article))
        assert response.ok, response.text()
        state: dict[str, Any] = response.json()
        return state

    def saved(self) -> dict[str, Any]:
        Browse.wait_saved(self.page)
        return self.stored()

    def select(self, paragraph: Paragraph, first: int, last: int) -> None:
        """Select from the start of word `first` to inside word `last` (it grows to words)."""
        if self.touch:
            self.page.evaluate(SELECT, [paragraph.path, paragraph.at(first), paragraph.into(last)])
            wait_for(self.page, "!document.getElementById('selection-bar').hidden")
            return
        begin, end = self.points(
            (paragraph.path, paragraph.at(first)), (paragraph.path, paragraph.into(last))
        )
        self.page.mouse.move(begin["x"], begin["y"])
        self.page.mouse.down()
        self.page.mouse.move(end["x"], end["y"], steps=10)
        self.page.mouse.up()

    def highlight(
        self, paragraph: Paragraph, first: int, last: int, wait_saved: bool = True
    ) -> list[int]:
        """A highlight of words `first` to `last`: a mouse drag, or touch and "Highlight";
        with `wait_saved`, once the server has it."""
        self.select(paragraph, first, last)
        if self.touch:
            self.page.locator("#bar-highlight").tap()
        if wait_saved:
            self.saved()
        return paragraph.span(first, last)

    def remove(self, paragraph: Paragraph, first: int, last: int) -> list[int]:
        """Just words `first` to `last` taken out of the passage around them: a selection inside
        it, then Delete (mouse) or "Remove highlight" (touch)."""
        self.select(paragraph, first, last)
        wait_for(self.page, "!document.getElementById('bar-remove-text').hidden")
        if self.touch:
            self.page.locator("#bar-remove-text").tap()
        else:
            self.page.keyboard.press("Delete")
        self.saved()
        return paragraph.span(first, last)

    def trim_end(self, paragraph: Paragraph, word: int) -> int:
        """Drag the end grip of the selected passage back into `word`: it ends after that word."""
        (target,) = self.points((paragraph.path, paragraph.into(word)))
        box = self.page.locator("#grip-end").bounding_box()
        assert box is not None, "no grip shows on the selected passage"
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if self.touch:  # a finger on the knob below the grip
            self.finger_drag((x, box["y"] + box["height"] + 5), (target["x"], target["y"]))
        else:
            self.page.mouse.move(x, y)
            self.page.mouse.down()
            self.page.mouse.move(target["x"], target["y"], steps=8)
            self.page.mouse.up()
        self.saved()
        return paragraph.span(word, word)[1]

    def finger_drag(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        """One finger pressed at `start`, moved to `end` and lifted, through the browser's own
        touch input (pointer events of type "touch", as on a phone)."""
        touch = self.page.context.new_cdp_session(self.page)
        steps = [
            (start[0] + (end[0] - start[0]) * i / 8, start[1] + (end[1] - start[1]) * i / 8)
            for i in range(9)
        ]
        for i, (x, y) in enumerate(steps):
            kind = "touchStart" if i == 0 else "touchMove"
            touch.send(
                "Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]}
            )
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        touch.detach()

    def shift_click(self, paragraph: Paragraph, word: int) -> int:
        """Shift+click at the start of `word`: the best entry point moves there."""
        (point,) = self.points((paragraph.path, paragraph.at(word)))
        self.page.keyboard.down("Shift")
        self.page.mouse.click(point["x"], point["y"])
        self.page.keyboard.up("Shift")
        self.saved()
        return paragraph.span(word, word)[0]

    def leave(self, action: str) -> str:
        """Leave the article by `action`, "next" or "nonrelevant", from the action bar (a key on
        desktop, a tap on the phone); the article it leads to."""
        before = self.page.url
        if self.touch:
            self.page.locator(f'#action-bar [data-action="{action}"]').tap()
        else:
            self.page.keyboard.press("j" if action == "next" else "x")
        self.page.wait_for_url(lambda url: url != before)
        Browse.ready(self.page)
        return self.article
