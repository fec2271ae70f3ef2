"""The Pools page: the judging-order form shows what is set, the forecast of relevant articles
left waits for enough judgements then gives an interval, and `mtc` is offered live."""

from __future__ import annotations

import re

from focal.assessor.store import db
from focal.assessor.store.models import Pool, PoolEntry, Topic

from ..assess.test_judging_order import ARTICLES, Site, go_next, judge, login, set_policy
from ..assess.test_judging_order import site as site  # the fixture


def selected(page: str, select_id: str) -> str | None:
    block = re.search(rf'<select id="{select_id}".*?</select>', page, re.S)
    assert block, select_id
    chosen = re.search(r'<option value="([^"]*)" selected>', block.group(0))
    return chosen.group(1) if chosen else None


def test_the_form_shows_the_order_set_for_a_topic(site: Site) -> None:
    with db.session_scope(site.app) as session:
        session.add(Topic(id="6", title="more letters", description="", narrative=""))
        session.flush()
        pool = Pool(topic_id="6", method="depth", parameters={"size": 3, "order": "article"})
        session.add(pool)
        session.flush()
        for position, article in enumerate(ARTICLES):
            session.add(PoolEntry(pool_id=pool.id, article=article, position=position,
                                  pool_rank=position + 1))  # fmt: skip
    olga, _ = login(site, "olga")
    page = olga.get("/organiser/pools").get_data(as_text=True)
    assert selected(page, "order-policy") == "fixed" and selected(page, "order-topic") is None
    set_policy(site, "thompson", topic="5", policy_seed=4, budget=3)
    page = olga.get("/organiser/pools").get_data(as_text=True)
    # The form now stands on topic 5 with its order, not on "every topic / fixed / seed 0".
    assert selected(page, "order-topic") == "5"
    assert selected(page, "order-policy") == "thompson"
    assert 'id="order-seed" name="policy_seed" type="number" min="0" value="4"' in page
    assert 'value="3"' in re.search(r'<input id="order-budget"[^>]*>', page).group(0)
    assert "5: thompson (seed 4, budget 3)" in page


def test_the_forecast_waits_then_shows_an_interval_and_mtc_suggests(site: Site) -> None:
    set_policy(site, "mtc")
    alice, token = login(site, "alice")
    olga, _ = login(site, "olga")
    page = olga.get("/organiser/pools").get_data(as_text=True)
    assert "The ranking is settled for" in page and "after 5 judgements" in page
    judged = []
    for _ in range(5):
        article = go_next(alice, site.assignments["alice"])
        assert article not in judged  # mtc offers an article not judged yet
        judge(alice, token, site.assignments["alice"], article, relevant=article in "ab")
        judged.append(article)
    page = olga.get("/organiser/pools").get_data(as_text=True)
    row = re.search(r"<tr><td>5</td><td>alice</td>.*?</tr>", page, re.S)
    assert row, page
    interval = re.search(r"(\d+) \[(\d+)–(\d+)\]", row.group(0))
    assert interval, row.group(0)
    low, high = int(interval.group(2)), int(interval.group(3))
    assert 0 <= low <= int(interval.group(1)) <= high <= 1  # one article of six is left
