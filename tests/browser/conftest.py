"""A live Focal server in a thread and Debian's Chromium driven by Playwright.

Each test gets a fresh site (temporary SQLite database, a small collection, one pooled topic,
assessors alice and bob, organiser olga) served by werkzeug on 127.0.0.1 at a free port. The
browser comes from pytest-playwright, launched from /usr/bin/chromium (never `playwright install`).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from sqlalchemy import select
from sqlalchemy.orm import Session
from werkzeug.serving import make_server

from focal.assessor.campaign.people.users import add_user, assign_topic
from focal.assessor.campaign.setup.importing import import_collection
from focal.assessor.cli.main import main
from focal.assessor.store import db, migrate
from focal.assessor.store.models import Assignment, Pool, PoolEntry, Run, RunResult, Topic, User
from focal.assessor.web.app import create_app
from focal.evaluation.text.document import Document

from ..conftest import wait_until

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHARED_ELIFE = (
    Path(__file__).resolve().parents[2].parent / "shared" / "data" / "collections" / "elife"
)
ELIFE_ARTICLE = "elife00240"

# Written here, not taken from anywhere: astral characters (two UTF-16 units each) before and
# inside the text to select, a carriage return kept as a character reference, inline markup.
ASTRAL_XML = (
    "<article><title>Symbols 𝄞 and 😀</title><bdy>"
    "<p>Clef 𝄞𝄞 starts the staff, then 😀 smiles.</p>"
    "<p>More 𝌆 text with <it>italic 𝒳 words</it> and a return&#13;here.</p>"
    "<p>Last 🎵 paragraph of the 🎶 article.</p>"
    "</bdy></article>"
)
PLAIN_XML = "<article><title>Plain</title><bdy><p>Nothing relevant in here.</p></bdy></article>"
PASSWORDS = {"alice": "alice-pw", "bob": "bob-pw", "olga": "olga-pw"}
DEMO = Path(__file__).resolve().parents[2] / "demo" / "collection"
DEMO_TOPIC = "9001"  # the demo's first topic, judged by `assessor` and `assessor2`
# How long a condition may take to come true (`wait_for` and Playwright's `expect`): generous,
# since CI runs the browser beside other tests on two busy cores; a true condition ends the wait.
PATIENCE = 15.0
expect.set_options(timeout=PATIENCE * 1000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is absent (make test installs Debian's chromium)")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": LAUNCH_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 1400}}


@contextmanager
def served_app(app: Flask) -> Iterator[str]:
    """`app` served by werkzeug in a thread on a free port of 127.0.0.1, yielded as its base URL;
    stopped (and its database connections closed) on leaving.

    The server looks for the stop request every 20 ms rather than werkzeug's default 500 ms,
    which every browser test would otherwise wait out at its end.
    """
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()
        db.engine_of(app).dispose()


@dataclass
class LiveSite:
    url: str
    directory: Path
    assignments: dict[str, int]
    articles: list[str]
    app: Any
    documents: dict[str, Document] = field(default_factory=dict)

    def document(self, article: str) -> Document:
        if article not in self.documents:
            self.documents[article] = Document.from_file(self.directory / f"{article}.xml")
        return self.documents[article]

    def article_url(self, user: str, article: str) -> str:
        return f"{self.url}/assignments/{self.assignments[user]}/articles/{article}"

    def state_url(self, user: str, article: str) -> str:
        return f"{self.url}/api/assignments/{self.assignments[user]}/documents/{article}"


@pytest.fixture
def demo_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveSite]:
    """The demo as `focal demo --no-serve` prepares it, in a throw-away database, served;
    `assignments` maps each assessor of its double-judged first topic to that assignment."""
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'demo.sqlite'}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "demo-browser-test")
    prepared = CliRunner().invoke(main, ["demo", "--no-serve"])
    assert prepared.exit_code == 0, prepared.output
    app = create_app()
    with db.session_scope(app) as session:
        rows = session.execute(
            select(User.name, Assignment.id)
            .join(User, Assignment.user_id == User.id)
            .where(Assignment.topic_id == DEMO_TOPIC)
        ).all()
    ids = {name: assignment for name, assignment in rows}
    assert set(ids) == {"assessor", "assessor2"}  # the demo double-judges its first topic
    with served_app(app) as url:
        yield LiveSite(url, DEMO, ids, [], app)


@dataclass(frozen=True)
class SeededSite:
    """A site's collection folder and database as `seed_site` left them, copied by each test."""

    directory: Path
    database: Path
    articles: list[str]
    assignments: dict[str, int]


def seed_site(folder: Path, extra_articles: dict[str, str]) -> SeededSite:
    """The collection (astral, plain, the eLife article when shared data is there, then
    `extra_articles`) and a database with one pooled topic, a run, and alice, bob and olga."""
    directory = folder / "collection"
    directory.mkdir()
    (directory / "astral.xml").write_text(ASTRAL_XML, encoding="utf-8")
    (directory / "plain.xml").write_text(PLAIN_XML, encoding="utf-8")
    articles = ["astral", "plain"]
    elife = SHARED_ELIFE / f"{ELIFE_ARTICLE}.xml"
    if elife.exists():  # a link, not a copy: shared data stays outside the repository
        (directory / elife.name).symlink_to(elife)
        articles.append(ELIFE_ARTICLE)
    for name, xml in extra_articles.items():
        (directory / f"{name}.xml").write_text(xml, encoding="utf-8")
        articles.append(name)
    database = folder / "seeded.sqlite"
    engine = db.make_engine(f"sqlite:///{database}")
    migrate.upgrade(engine)
    with Session(engine) as session:
        import_collection(session, directory, "browser")
        pooled_topic(session, "symbols in text", articles)
        run = Run(name="bm25", file="bm25.run", kind="fol")
        session.add(run)
        session.flush()
        # One passage result in the astral article: "staff, then 😀" (offsets in code points).
        astral_text = Document.from_file(directory / "astral.xml").text
        start = astral_text.index("staff")
        session.add(
            RunResult(
                run_id=run.id,
                topic_id="1",
                article="astral",
                rank=1,
                score=1.0,
                start=start,
                length=len("staff, then 😀"),
            )
        )
        for name, password in PASSWORDS.items():
            add_user(session, name, "organiser" if name == "olga" else "assessor", password)
        ids = {name: assign_topic(session, "1", name).id for name in ("alice", "bob")}
        session.commit()
    with engine.connect() as connection:  # the whole database in its one file, for copying
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return SeededSite(directory, database, articles, ids)


@pytest.fixture(scope="session")
def seeded_sites(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[dict[str, str]], SeededSite]:
    """`seed_site` once per set of extra articles in a test session (it hashes three passwords
    with scrypt and imports the collection: most of a browser test's set-up otherwise)."""
    made: dict[tuple[tuple[str, str], ...], SeededSite] = {}

    def seeded(extra_articles: dict[str, str]) -> SeededSite:
        key = tuple(extra_articles.items())
        if key not in made:
            made[key] = seed_site(tmp_path_factory.mktemp("site"), extra_articles)
        return made[key]

    return seeded


@pytest.fixture
def live_site(
    tmp_path: Path,
    request: pytest.FixtureRequest,
    seeded_sites: Callable[[dict[str, str]], SeededSite],
) -> Iterator[LiveSite]:
    """The site, on its own copy of the seeded database; a test module's `EXTRA_ARTICLES`
    ({name: XML}) join the pool after the others. The collection folder is shared: read only."""
    seeded = seeded_sites(getattr(request.module, "EXTRA_ARTICLES", {}))
    database = tmp_path / "live.sqlite"
    shutil.copyfile(seeded.database, database)
    app = create_app({"DATABASE_URL": f"sqlite:///{database}", "SECRET_KEY": "browser-tests"})
    with served_app(app) as url:
        yield LiveSite(url, seeded.directory, dict(seeded.assignments), list(seeded.articles), app)


# JavaScript: viewport points just inside the left edge of a UTF-16 unit of the first text node
# of an element (by data-path), for each [path, unit] given; the first element is scrolled to the
# top of the viewport first, so that nearby points are all visible at once.
CHAR_POINTS = """(points) => {
    const at = (path) => document.querySelector(`#document [data-path="${path}"]`);
    at(points[0][0]).scrollIntoView({block: "start"});
    window.scrollBy(0, -40);
    return points.map(([path, units]) => {
        const range = new Range();
        range.setStart(at(path).firstChild, units);
        range.setEnd(at(path).firstChild, units + 1);
        const rect = range.getClientRects()[0];
        const visible = rect.bottom < innerHeight;
        return {x: rect.left + 1, y: rect.top + rect.height / 2, visible};
    });
}"""


def wait_for(page: Page, expression: str, timeout: float = PATIENCE) -> None:
    """Until the JavaScript `expression` is true in the page, polled from Python; it may
    `await` (e.g. `screen_module`).

    Not `page.wait_for_function`: Playwright evaluates its predicate with `eval` inside the
    page, which the app's Content-Security-Policy forbids (as it should); `page.evaluate` is
    run by the browser's debugging protocol, outside the policy.
    """
    predicate = f"async () => Boolean({expression})"
    wait_until(lambda: page.evaluate(predicate), timeout, expression, 0.02)


# JavaScript: true once the assessment screen's outbox is open and what it held is queued
# (`data-outbox` on body, set by static/assess/main.js: "opening" once its modules have run).
OUTBOX_OPEN = "document.body.dataset.outbox === 'open'"


def screen_module(name: str) -> str:
    """JavaScript, inside an async function (`wait_for`, `page.evaluate("async () => ...")`):
    the assessment screen's ES module `name` (static/assess/), the very instance the page runs.

    The page keeps no global for tests (docs/architecture.md: no shared global); `import()` of
    the URL the page's own imports resolve to (beside its entry, main.js) gives the module the
    page evaluated, never a second copy.
    """
    main = "document.querySelector('script[type=module][src$=\"/assess/main.js\"]').src"
    return f"(await import(new URL({name!r}, {main})))"


class Browse:
    """What the browser tests do again and again, bound to one live site and browser."""

    def __init__(self, browser: Browser, site: LiveSite) -> None:
        self.browser = browser
        self.site = site

    def log_in(self, name: str, **context: Any) -> Page:
        """A page in a fresh browser context (`context`: Playwright's options, e.g. a viewport
        or touch), logged in as `name` through the log-in form."""
        page = self.browser.new_context(**context).new_page()
        page.goto(f"{self.site.url}/login")
        page.fill('input[name="name"]', name)
        page.fill('input[name="password"]', PASSWORDS[name])
        page.click('button[type="submit"]')
        landing = "/organiser/progress" if name == "olga" else "/topics"
        page.wait_for_url(f"{self.site.url}{landing}")
        return page

    def open_article(self, page: Page, user: str, article: str) -> None:
        page.goto(self.site.article_url(user, article))
        self.ready(page)

    @staticmethod
    def ready(page: Page) -> None:
        """Wait for the page script, then keep a copy of the selection at each mouse-up.

        The page turns a selection into a highlight and clears it; a capture listener on
        window runs before the page's own listener on document, so it still sees it.
        """
        wait_for(page, "document.body.dataset.outbox !== undefined")
        page.evaluate(
            """() => window.addEventListener("mouseup", () => {
                const s = getSelection();
                window.__selection = s.toString();
                window.__range = s.rangeCount ? s.getRangeAt(0).toString() : "";
            }, true)"""
        )

    @staticmethod
    def wait_saved(page: Page) -> None:
        """Until every queued operation has been answered by the server.

        Only once the outbox is open: before that, a fresh page counts nothing pending and
        shows "saved" (its initial state), though the outbox may hold what a closed tab left,
        which the page sends right after opening it (static/assess/main.js).
        """
        wait_for(
            page,
            f"{OUTBOX_OPEN} && {screen_module('queue.js')}.readQueue().length === 0"
            " && document.getElementById('save-state').dataset.state === 'saved'",
        )

    def stored_state(self, page: Page, user: str, article: str) -> dict[str, Any]:
        """The judgement state the server holds (through the API, with the page's cookies)."""
        response = page.request.get(self.site.state_url(user, article))
        assert response.ok, response.text()
        state: dict[str, Any] = response.json()
        return state

    @staticmethod
    def char_points(page: Page, *points: tuple[str, int]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = page.evaluate(CHAR_POINTS, [list(p) for p in points])
        assert all(point["visible"] for point in found), found
        return found

    def drag_select(self, page: Page, start: tuple[str, int], end: tuple[str, int]) -> None:
        """Press the mouse at `start` (path, UTF-16 unit), drag to `end`, release."""
        begin, finish = self.char_points(page, start, end)
        page.mouse.move(begin["x"], begin["y"])
        page.mouse.down()
        page.mouse.move(finish["x"], finish["y"], steps=12)
        page.mouse.up()


@pytest.fixture
def ui(browser: Browser, live_site: LiveSite) -> Browse:
    return Browse(browser, live_site)


def pooled_topic(session: Session, title: str, articles: list[str]) -> Pool:
    """Topic 1, titled `title`, with a manual pool of `articles` in that order."""
    session.add(Topic(id="1", title=title, description="d", narrative="n"))
    session.flush()
    pool = Pool(topic_id="1", method="manual", parameters={})
    session.add(pool)
    session.flush()
    for position, article in enumerate(articles):
        session.add(
            PoolEntry(pool_id=pool.id, article=article, position=position, pool_rank=position)
        )
    return pool
