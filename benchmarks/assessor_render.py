"""How long the largest shared article (Hamlet, ~240 K characters) takes to show for assessment.

Prints, best of several runs:
- parse: safe parse + `Document` (text and element table) — what any use of the article costs;
- render: the HTML of `#document` from the parsed tree (`render_events`), and its ratio to parse;
  without a display profile and with the Shakespeare one (docs/profiles.md);
- parse + render: `render_document`, the two together, as the article screen pays them once;
- page: the whole article screen through Flask (cold: nothing cached; warm: rendered HTML
  cached), with a temporary SQLite database holding Hamlet in a one-article pool;
- browser: that screen opened in Chromium (Debian's /usr/bin/chromium, driven by Playwright)
  until its script is ready and every operation saved, as tests/browser waits for it: a long
  article must stay usable (tests/browser/assess/test_long_articles.py checks that it does,
  this measures how long it takes). Skipped, saying why, without Playwright or Chromium.
Machines are shared and noisy: the ratios matter, the absolute times are for orientation.

Run with `python -P` (keeps benchmarks/ off sys.path, where the script names assessor.py and
pooling.py would hide the packages): `.venv/bin/python -P benchmarks/assessor_render.py`.
"""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from flask import Flask

from focal.assessor.campaign.setup.profiles import get_profile
from focal.assessor.web.rendering import _render_cached, render_document, render_events
from focal.evaluation.text.document import Document
from focal.evaluation.text.xmlsafe import parse_xml

HAMLET = Path(__file__).resolve().parents[2] / "shared/data/collections/shakespeare/hamlet.xml"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# The page's scripts have run and its outbox is open (`data-outbox` on body, set by
# static/assess/main.js, as tests/browser waits for it), and nothing waits to be saved.
READY = (
    "document.body.dataset.outbox === 'open'"
    " && document.getElementById('save-state').dataset.state === 'saved'"
)


def best_of(repeats: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - began)
    return best


@contextmanager
def hamlet_site() -> Iterator[tuple[Flask, int, str]]:
    """A temporary SQLite database holding Hamlet in a one-article pool: the app, the
    assignment of its one assessor and that assessor's bearer token."""
    from focal.assessor.campaign.people.users import add_user, assign_topic, issue_token
    from focal.assessor.campaign.setup.importing import import_collection
    from focal.assessor.store import db, migrate
    from focal.assessor.store.models import Pool, PoolEntry, Topic
    from focal.assessor.web.app import create_app

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / "collection").mkdir()
        (folder / "collection" / HAMLET.name).symlink_to(HAMLET)
        app = create_app(
            {"DATABASE_URL": f"sqlite:///{folder / 'bench.sqlite'}", "SECRET_KEY": "b"}
        )
        migrate.upgrade(db.engine_of(app))
        with db.session_scope(app) as session:
            import_collection(session, folder / "collection", "bench")
            session.add(Topic(id="1", title="ghosts", description="", narrative=""))
            session.flush()
            pool = Pool(topic_id="1", method="manual", parameters={})
            session.add(pool)
            session.flush()
            session.add(PoolEntry(pool_id=pool.id, article="hamlet", position=0, pool_rank=0))
            user = add_user(session, "reader", "assessor", None)
            assignment_id = assign_topic(session, "1", "reader").id
            token = issue_token(session, user)
        try:
            yield app, assignment_id, token
        finally:
            db.engine_of(app).dispose()


def page_times(repeats: int) -> tuple[float, float]:
    """(cold, warm) seconds for GET of Hamlet's article screen, bearer-authenticated."""
    with hamlet_site() as (app, assignment_id, token):
        client = app.test_client()
        url = f"/assignments/{assignment_id}/articles/hamlet"
        headers = {"Authorization": f"Bearer {token}"}

        def get() -> None:
            response = client.get(url, headers=headers)
            if response.status_code != 200:
                raise SystemExit(f"GET {url}: HTTP {response.status_code}")

        def cold() -> None:
            _render_cached.cache_clear()
            get()

        get()  # the first request pays for imports and template compilation
        return best_of(repeats, cold), best_of(repeats, get)


def browser_time(repeats: int) -> float | str:
    """Seconds until Hamlet's article screen is ready in Chromium (fresh browser context, the
    server's rendering cache cleared), best of `repeats`; or why it was not measured."""
    try:
        from playwright.sync_api import sync_playwright
    except ModuleNotFoundError:
        return "skipped (Playwright is not installed: pip install -e '.[test]')"
    if not CHROMIUM.exists():
        return f"skipped ({CHROMIUM} is absent: apt-get install chromium)"
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    with hamlet_site() as (app, assignment_id, token), sync_playwright() as playwright:
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
        thread.start()
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        url = f"http://127.0.0.1:{server.server_port}/assignments/{assignment_id}/articles/hamlet"

        def open_page() -> None:
            _render_cached.cache_clear()
            context = browser.new_context(
                viewport={"width": 1280, "height": 1400},
                extra_http_headers={"Authorization": f"Bearer {token}"},
            )
            page = context.new_page()
            page.goto(url)
            # Polled with `page.evaluate`, outside the page's Content-Security-Policy (which
            # forbids the `eval` of Playwright's `wait_for_function`), every 20 ms.
            deadline = time.monotonic() + 120
            while not page.evaluate(f"() => Boolean({READY})"):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{url}: not ready after 120 s")
                time.sleep(0.02)
            context.close()

        try:
            open_page()  # the first opening pays for imports and template compilation
            return best_of(repeats, open_page)
        finally:
            browser.close()
            server.shutdown()
            thread.join(timeout=10)
            server.server_close()


def main() -> int:
    if not HAMLET.exists():
        print(f"skipped: {HAMLET} is absent (put `shared` beside the repository)")
        return 0
    data = HAMLET.read_bytes()

    def parse() -> Document:
        return Document("hamlet", parse_xml(data, name=str(HAMLET)).getroot())

    document = parse()
    root = parse_xml(data).getroot()
    parse_time = best_of(5, parse)
    render_time = best_of(5, lambda: render_events(root, document.elements))
    html = render_events(root, document.elements)
    play = get_profile("shakespeare")
    profiled_time = best_of(5, lambda: render_events(root, document.elements, play))
    profiled = render_events(root, document.elements, play)
    whole_time = best_of(5, lambda: render_document(data, "hamlet"))
    cold, warm = page_times(5)
    browser = browser_time(3)
    print(f"Hamlet: {len(document.text):,} characters, {len(document.elements):,} elements")
    print(f"  parse + Document  {parse_time * 1000:8.1f} ms")
    print(
        f"  render HTML       {render_time * 1000:8.1f} ms  "
        f"({render_time / parse_time:.2f} x parse; {len(html):,} bytes of HTML)"
    )
    print(
        f"  render, profile   {profiled_time * 1000:8.1f} ms  "
        f"({profiled_time / parse_time:.2f} x parse; {len(profiled):,} bytes of HTML; "
        "the shakespeare display profile)"
    )
    print(f"  parse + render    {whole_time * 1000:8.1f} ms  (render_document)")
    print(f"  article page cold {cold * 1000:8.1f} ms  ({cold / parse_time:.2f} x parse)")
    print(f"  article page warm {warm * 1000:8.1f} ms  ({warm / cold:.2f} x cold)")
    if isinstance(browser, str):
        print(f"  in Chromium       {browser}")
    else:
        ratio = browser / cold
        print(
            f"  in Chromium       {browser * 1000:8.1f} ms  (ready, saved; {ratio:.1f} x page cold)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
