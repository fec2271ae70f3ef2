"""The site's navigation bar: the organiser's pages in four groups, the current one marked.

Organisers reach a dozen pages; grouped in the order of a campaign (set up, judge, follow,
results) they stay findable. Assessors see only their own topics.
"""

from __future__ import annotations

import re

import lxml.html

from ...conftest import Seeded, login

GROUPS = {
    "Set up": ["Import", "Pools", "Users", "Settings"],
    "Judge": ["Matrix", "Assignments", "Double judging", "Modes", "Adjudication"],
    "Follow": ["Progress", "Topics", "Flags and notes"],
    "Results": ["Agreement", "Report", "Export"],
}


def nav_of(html: str) -> str:
    found = re.search(r'<nav aria-label="Main">(.*?)</nav>', html, re.S)
    assert found is not None, html
    return found.group(1)


def groups_of(nav: str) -> dict[str, list[str]]:
    """Each group's label and the texts of its links, in order."""
    tree = lxml.html.fragment_fromstring(nav, create_parent="nav")
    return {
        str(group.get("aria-label")): [str(a.text_content()) for a in group.iter("a")]
        for group in tree.xpath('.//span[@class="nav-group"][@role="group"]')
    }


def test_the_organiser_sees_every_page_in_four_groups(seeded: Seeded) -> None:
    client = seeded.app.test_client()
    login(client, "olga")
    nav = nav_of(client.get("/organiser/matrix").get_data(as_text=True))
    assert groups_of(nav) == GROUPS
    every = re.findall(r'<a href="([^"]+)"', nav)
    assert len(every) == sum(len(links) for links in GROUPS.values())
    for href in every:  # every link leads to a page the organiser may open
        assert client.get(href).status_code == 200, href


def test_the_current_page_is_marked_and_only_it(seeded: Seeded) -> None:
    client = seeded.app.test_client()
    login(client, "olga")
    nav = nav_of(client.get("/organiser/matrix").get_data(as_text=True))
    assert re.findall(r'<a [^>]*aria-current="page"[^>]*>([^<]+)</a>', nav) == ["Matrix"]
    nav = nav_of(client.get("/organiser/progress").get_data(as_text=True))
    assert re.findall(r'<a [^>]*aria-current="page"[^>]*>([^<]+)</a>', nav) == ["Progress"]


def test_an_assessor_sees_only_their_topics(seeded: Seeded) -> None:
    client = seeded.app.test_client()
    login(client, "alice")
    nav = nav_of(client.get("/topics").get_data(as_text=True))
    assert re.findall(r"<a [^>]*>([^<]+)</a>", nav) == ["My topics"]
    assert "nav-group" not in nav
