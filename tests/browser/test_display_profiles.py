"""A play under the Shakespeare display profile, in Chromium: readable, and offsets unchanged.

The page must show the speaker where it changes, stage directions in italics and set apart,
"Act 1, Scene 2" headings (CSS counters: the words are in no text node, so they are read from
Chromium's accessibility tree, which holds the rendered generated content), front matter folded
behind a control outside the text, and highlighting must still store the offsets of the
document's text. One play is written here (a fresh clone has it); Hamlet is imported from
../shared when present.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from focal.assessor.campaign.people.users import add_user, assign_topic
from focal.assessor.campaign.setup.importing import import_collection
from focal.assessor.store import db, migrate
from focal.assessor.store.models import Collection
from focal.assessor.web.app import create_app

from .conftest import PASSWORDS, Browse, LiveSite, pooled_topic, served_app, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HAMLET = Path(__file__).resolve().parents[2].parent / "shared/data/collections/shakespeare"

# Our own play-shaped text, in the markup of the shared plays.
PLAY_XML = """<?xml version="1.0" encoding="UTF-8"?>
<play>
    <head>
        <title>The Lamplighters</title>
        <shortName>lamps</shortName>
        <tag>comedy</tag>
    </head>
    <text>
        <act info="">
            <scene info="">
                <text type="enter">Ada and Ben, with a ladder</text>
                <text char="Ada" type="verse">Who trims the wick tonight?</text>
                <text char="Ben" type="verse">Not I, for I have trimmed it twice this week,
                    And twice the flame went out.</text>
                <text char="Ben" type="verse">Ask Cal.</text>
                <text type="exit"></text>
            </scene>
            <scene info="">
                <text type="enter">Cal, alone</text>
                <text char="Cal" type="verse">The oil is low, the glass is cracked,
                    the night is long.</text>
                <text type="stage">He climbs</text>
                <text char="Cal" type="verse">And still the ships come in.</text>
            </scene>
        </act>
        <act info="">
            <scene info="">
                <text char="Ada" type="prose">Morning, and the light still burns.</text>
            </scene>
        </act>
    </text>
</play>
"""
SPEECH = "/play[1]/text[1]/act[1]/scene[2]/text[2]"


def serve(tmp_path: Path, articles: dict[str, Path | str]) -> Iterator[LiveSite]:
    """A live site whose collection is `articles` (a file to link or XML text to write)."""
    directory = tmp_path / "plays"
    directory.mkdir()
    for name, source in articles.items():
        if isinstance(source, Path):
            (directory / f"{name}.xml").symlink_to(source)
        else:
            (directory / f"{name}.xml").write_text(source, encoding="utf-8")
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}", "SECRET_KEY": "p"})
    migrate.upgrade(db.engine_of(app))
    with db.session_scope(app) as session:
        import_collection(session, directory, "plays")  # no --profile: detected from <play>
        assert session.query(Collection).one().display_profile == "shakespeare"
        pooled_topic(session, "lamps", articles)
        add_user(session, "alice", "assessor", PASSWORDS["alice"])
        ids = {"alice": assign_topic(session, "1", "alice").id}
    with served_app(app) as url:
        yield LiveSite(url, directory, ids, list(articles), app)


@pytest.fixture
def own_play(browser: Browser, tmp_path: Path) -> Iterator[Browse]:
    for site in serve(tmp_path, {"lamps": PLAY_XML}):
        yield Browse(browser, site)


@pytest.fixture
def hamlet(browser: Browser, tmp_path: Path) -> Iterator[Browse]:
    if not (HAMLET / "hamlet.xml").exists():
        pytest.skip(f"real plays not available: {HAMLET / 'hamlet.xml'} is absent")
    for site in serve(tmp_path, {"hamlet": HAMLET / "hamlet.xml"}):
        yield Browse(browser, site)


def generated_texts(page: Page) -> list[str]:
    """The texts of the page's accessibility tree, generated content included, in order.

    Chromium gives each part of a `content` value (a string, a counter) its own text node: the
    text nodes of one parent are joined, so `"Act " counter(act)` reads "Act 1".
    """
    session = page.context.new_cdp_session(page)
    tree = session.send("Accessibility.getFullAXTree")
    session.detach()
    texts: list[str] = []
    parents: list[object] = []
    for node in tree["nodes"]:
        name = node.get("name", {}).get("value")
        if node.get("role", {}).get("value") != "StaticText" or not name:
            continue
        if parents and parents[-1] == node.get("parentId"):
            texts[-1] += str(name)
        else:
            texts.append(str(name))
            parents.append(node.get("parentId"))
    return texts


def before_content(page: Page, selector: str) -> list[str]:
    """The computed `content` of `::before` of every element matching `selector`, in order."""
    found: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
            .map((el) => getComputedStyle(el, "::before").content)""",
        selector,
    )
    return found


def test_speakers_stage_directions_headings_and_folded_metadata(own_play: Browse) -> None:
    page = own_play.log_in("alice")
    own_play.open_article(page, "alice", "lamps")
    document = own_play.site.document("lamps")
    assert page.evaluate("document.getElementById('document').textContent") == document.text

    # the speaker stands above the first speech of each run, nowhere else
    assert before_content(page, "#document .pf-speech") == [
        '"Ada"',
        '"Ben"',
        "none",
        '"Cal"',
        "none",
        '"Ada"',
    ]
    shown = generated_texts(page)
    # (set in capitals by text-transform, which the accessibility tree follows)
    assert [t for t in shown if t in {"ADA", "BEN", "CAL"}] == ["ADA", "BEN", "CAL", "ADA"]
    # headings from counters, numbered per act
    assert [t for t in shown if t.startswith("Act ")] == [
        "Act 1, Scene 1",
        "Act 1, Scene 2",
        "Act 2, Scene 1",
    ]
    # stage directions: italic and indented past the speeches; an empty exit says so
    style = page.evaluate(
        """() => {
        const stage = document.querySelector("#document .pf-stage-direction");
        const speech = document.querySelector("#document .pf-speech");
        return {
            italic: getComputedStyle(stage).fontStyle,
            speechItalic: getComputedStyle(speech).fontStyle,
            stageLeft: stage.getBoundingClientRect().left,
            speechLeft: speech.getBoundingClientRect().left,
        };
    }"""
    )
    assert style["italic"] == "italic" and style["speechItalic"] == "normal"
    assert style["stageLeft"] > style["speechLeft"]
    assert "Exit" in shown
    # the title is set as a title: a level-1 heading, larger than the verse
    sizes = page.evaluate(
        """() => [".pf-play-title", ".pf-speech"].map((s) =>
            parseFloat(getComputedStyle(document.querySelector(`#document ${s}`)).fontSize))"""
    )
    assert sizes[0] > 1.5 * sizes[1]
    assert page.get_by_role("heading", name="The Lamplighters", level=1).is_visible()

    # play metadata is folded away, behind a button outside the text
    metadata = page.locator("#document .pf-metadata").first
    assert not metadata.is_visible()
    toggle = page.locator("#fold-toggle")
    page.evaluate("() => { window.fold_toggle = document.getElementById('fold-toggle'); }")
    assert toggle.inner_text() == "Show play metadata"
    assert page.evaluate("() => !document.getElementById('document').contains(fold_toggle)")
    toggle.click()
    assert metadata.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.getElementById('document').textContent") == document.text


def test_highlighting_a_speech_saves_the_document_offsets(own_play: Browse) -> None:
    page = own_play.log_in("alice")
    own_play.open_article(page, "alice", "lamps")
    document = own_play.site.document("lamps")
    speech = document.text[slice(*document.span(SPEECH))]
    begin, finish = speech.index("glass"), speech.index("cracked") + len("cracked")
    own_play.drag_select(page, (SPEECH, begin), (SPEECH, finish))
    own_play.wait_saved(page)
    start = document.span(SPEECH)[0] + begin
    state = own_play.stored_state(page, "alice", "lamps")
    assert state["passages"] == [[start, start + finish - begin]]
    assert document.text[start : start + finish - begin] == "glass is cracked"
    assert page.evaluate("window.__range") == "glass is cracked"


def test_a_judgement_in_folded_metadata_opens_the_fold(own_play: Browse) -> None:
    page = own_play.log_in("alice")
    own_play.open_article(page, "alice", "lamps")
    toggle = page.locator("#fold-toggle")
    toggle.click()
    tag = "/play[1]/head[1]/tag[1]"
    page.keyboard.down("Alt")  # exact characters: the end falls inside a word
    own_play.drag_select(page, (tag, 0), (tag, 4))
    page.keyboard.up("Alt")
    own_play.wait_saved(page)
    document = own_play.site.document("lamps")
    start = document.span(tag)[0]
    assert own_play.stored_state(page, "alice", "lamps")["passages"] == [[start, start + 4]]
    toggle.click()  # folded again, and remembered so...
    assert not page.locator("#document .pf-metadata").first.is_visible()
    own_play.open_article(page, "alice", "lamps")
    # ...but the next load opens it: a highlighted passage is never hidden
    assert page.locator("#document .pf-metadata").first.is_visible()
    assert page.locator("#fold-toggle").inner_text() == "Hide play metadata"


def test_hamlet_reads_as_a_play_and_highlights_right(hamlet: Browse) -> None:
    page = hamlet.log_in("alice")
    hamlet.open_article(page, "alice", "hamlet")
    document = hamlet.site.document("hamlet")
    assert page.evaluate("document.getElementById('document').textContent") == document.text
    headings = [t for t in generated_texts(page) if t.startswith("Act ")]
    assert headings[:3] == ["Act 1, Scene 1", "Act 1, Scene 2", "Act 1, Scene 3"]
    assert headings[-1] == "Act 5, Scene 2" and len(headings) == 20
    first = before_content(page, "#document .pf-speech")[:3]
    assert first == ['"Bernardo"', '"Francisco"', '"Bernardo"']
    # the first speech of Act 1, Scene 2
    path = page.evaluate(
        """() => document.querySelector(
            '#document .pf-act:first-child .pf-scene:nth-child(2) .pf-speech').dataset.path"""
    )
    speech = document.text[slice(*document.span(path))]
    hamlet.drag_select(page, (path, 0), (path, speech.index(" ", 12)))
    hamlet.wait_saved(page)
    start = document.span(path)[0]
    state = hamlet.stored_state(page, "alice", "hamlet")
    assert state["passages"] == [[start, start + speech.index(" ", 12)]]
    assert page.evaluate("window.__range") == speech[: speech.index(" ", 12)]
    wait_for(page, "CSS.highlights.get('focal-passage').size === 1")
