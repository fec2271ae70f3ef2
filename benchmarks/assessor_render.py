"""Server time to render the largest shared article (Hamlet, ~240 K characters) for assessment.

Prints, best of several runs:
- parse: safe parse + `Document` (text and element table) — what any use of the article costs;
- render: the HTML of `#document` from the parsed tree (`render_events`), and its ratio to parse;
  without a display profile and with the Shakespeare one (docs/profiles.md);
- page: the whole article screen through Flask (cold: nothing cached; warm: rendered HTML
  cached), with a temporary SQLite database holding Hamlet in a one-article pool.
Machines are shared and noisy: the ratios matter, the absolute times are for orientation.

Run with `python -P` (keeps benchmarks/ off sys.path, where the script names assessor.py and
pooling.py would hide the packages): `.venv/bin/python -P benchmarks/assessor_render.py`.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from focal.assessor.campaign.setup.profiles import get_profile
from focal.assessor.web.rendering import _render_cached, render_events
from focal.evaluation.text.document import Document
from focal.evaluation.text.xmlsafe import parse_xml

HAMLET = Path(__file__).resolve().parents[2] / "shared/data/collections/shakespeare/hamlet.xml"


def best_of(repeats: int, action: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        began = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - began)
    return best


def page_times(repeats: int) -> tuple[float, float]:
    """(cold, warm) seconds for GET of Hamlet's article screen, bearer-authenticated."""
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
        timings = best_of(repeats, cold), best_of(repeats, get)
        db.engine_of(app).dispose()
        return timings


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
    cold, warm = page_times(5)
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
    print(f"  article page cold {cold * 1000:8.1f} ms  ({cold / parse_time:.2f} x parse)")
    print(f"  article page warm {warm * 1000:8.1f} ms  ({warm / cold:.2f} x cold)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
