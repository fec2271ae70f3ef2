"""The organiser's export through Flask's test client, for topic 1 judged by alice and bob.

The judgements are `double_judge`'s (tests/assessor/conftest.py); the lines below were written
from them by hand: alice 1001 [5,25) BEP 5, 1002 not relevant (24 characters), 1003 [5,11)
BEP 5 (suggested); bob 1001 [9,35) BEP 12, 1002 [4,10) BEP 4 (suggested).
"""

from __future__ import annotations

from typing import Any

from ...conftest import Seeded, double_judge

ALICE = ["1 Q0 1001 20 49 5 5:20", "1 Q0 1002 0 24", "1 Q0 1003 6 19 5 5:6"]
BOB = ["1 Q0 1001 26 49 12 9:26", "1 Q0 1002 6 24 4 4:6"]


def test_export_page_offers_a_choice_per_double_judged_topic(seeded: Seeded, log_in: Any) -> None:
    double_judge(seeded)
    olga = seeded.app.test_client()
    log_in(olga, "olga")
    page = olga.get("/organiser/export").get_data(as_text=True)
    assert 'aria-label="Assessor for topic 1"' in page
    assert 'value="1=alice"' in page and 'value="1=bob"' in page

    refused = olga.get("/organiser/export.qrels")
    banner = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'id="export-form"' in banner  # the form again
    assert "Topic 1 was judged by alice and bob" in banner and "--assessor" not in banner

    chosen = olga.get("/organiser/export.qrels?topic=1&choose=1=bob")
    assert chosen.status_code == 200 and chosen.get_data(as_text=True).splitlines() == BOB
    every = olga.get("/organiser/export.qrels?topic=1&with_assessors=1").get_data(as_text=True)
    assert every.splitlines() == [
        line.replace(" Q0 ", f" {name} ")
        for name, lines in (("alice", ALICE), ("bob", BOB))
        for line in lines
    ]

    unknown = olga.get("/organiser/export.qrels?assessor=zed")
    assert unknown.status_code == 422
    assert "no assessor &#39;zed&#39;" in unknown.get_data(as_text=True)
    # the form's "choose an assessor" is an empty value, not a choice; a malformed one is refused
    unchosen = olga.get("/organiser/export.qrels?topic=1&choose=&choose=1=alice")
    assert unchosen.status_code == 200 and unchosen.get_data(as_text=True).splitlines() == ALICE
    malformed = olga.get("/organiser/export.qrels?choose=1")
    assert malformed.status_code == 422
    assert "expected TOPIC=NAME, found &#39;1&#39;" in malformed.get_data(as_text=True)
    mixed = olga.get("/organiser/export.qrels?with_assessors=1&assessor=alice")
    assert mixed.status_code == 422 and "--with-assessors writes every" in mixed.get_data(
        as_text=True
    )
