"""A collection's display profile: chosen at import, detected when not given, changed later.

Through `focal import collection --profile` and `focal collection profile`, in-process with
click's CliRunner; then the article page of a seeded site follows the stored choice.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.profiles import set_display_profile
from focal.assessor.store import db
from focal.assessor.store.models import Collection, Document

from ..conftest import Seeded, write_collection

PLAY = "<play><head><title>P</title></head><text><act><scene>{}</scene></act></text></play>"


@pytest.fixture
def cli(cli: Any) -> Any:
    """The commands on an initialised, empty database."""
    cli("init-db")
    return cli


def test_import_detects_the_profile_and_the_command_changes_it(cli: Any, tmp_path: Path) -> None:
    collection = write_collection(tmp_path / "docs")  # <article><title/><bdy/>: INEX Wikipedia
    assert "display profile: wikipedia" in cli("import", "collection", str(collection)).output
    shown = cli("collection", "profile", "docs").output
    assert shown.splitlines()[0] == "docs: wikipedia"
    for name in ("default", "demo", "jats", "shakespeare", "wikipedia"):
        assert f"  {name} " in shown
    assert "display profile jats" in cli("collection", "profile", "docs", "jats").output
    assert cli("collection", "profile", "docs").output.startswith("docs: jats\n")
    # re-importing without --profile keeps the choice; --profile replaces it
    assert "display profile: jats" in cli("import", "collection", str(collection)).output
    imported = cli("import", "collection", str(collection), "--profile", "demo")
    assert "display profile: demo" in imported.output
    cli("collection", "profile", "docs", "auto")
    assert cli("collection", "profile", "docs").output.startswith("docs: auto\n")


def test_unknown_names_are_one_line_errors_and_change_nothing(cli: Any, tmp_path: Path) -> None:
    plays = tmp_path / "plays"
    plays.mkdir()
    (plays / "p1.xml").write_text(PLAY.format("<text char='A'>x</text>"), encoding="utf-8")
    refused = cli("import", "collection", str(plays), "--profile", "nope", code=2)
    assert "no display profile 'nope': expected one of default, demo, jats" in refused.stderr
    assert "no collection named 'plays'" in cli("collection", "profile", "plays", code=2).stderr
    assert "display profile: shakespeare" in cli("import", "collection", str(plays)).output
    refused = cli("collection", "profile", "plays", "<b>", code=2)
    assert "no display profile '<b>'" in refused.stderr
    assert cli("collection", "profile", "plays").output.startswith("plays: shakespeare\n")
    assert (
        "no collection named 'other'"
        in cli("collection", "profile", "other", "jats", code=2).stderr
    )


def test_the_article_page_follows_the_collection_profile(seeded: Seeded, log_in: Any) -> None:
    client: FlaskClient = seeded.app.test_client()
    log_in(client, "alice")
    url = f"/assignments/{seeded.alice}/articles/1001"

    def page() -> str:
        response = client.get(url)
        assert response.status_code == 200
        return response.get_data(as_text=True)

    # rows made without the import: NULL, detected from the root element (article/title/bdy)
    assert "pf-profile-wikipedia" in page()
    # the article page loads profiles.css, and main.js, which imports profiles.js (tests/static)
    assert "profiles.css" in page() and "/static/assess/main.js" in page()
    with db.session_scope(seeded.app) as session:
        set_display_profile(session, "test", "default")
    assert "pf-profile" not in page()
    with db.session_scope(seeded.app) as session:
        set_display_profile(session, "test", "jats")
        row = session.scalars(select(Collection).where(Collection.name == "test")).one()
        assert row.display_profile == "jats"
        with pytest.raises(CampaignError, match="no display profile"):
            set_display_profile(session, "test", "nope")
        assert session.get(Document, "1001") is not None
    assert "pf-profile-jats" in page()


def test_documents_whose_roots_disagree_are_detected_one_by_one(cli: Any, tmp_path: Path) -> None:
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "p1.xml").write_text(PLAY.format("<text char='A'>x</text>"), encoding="utf-8")
    (mixed / "a1.xml").write_text("<article><front/><body/></article>", encoding="utf-8")
    imported = cli("import", "collection", str(mixed))
    assert "display profile: detected per document" in imported.output
    assert cli("collection", "profile", "mixed").output.startswith("mixed: auto\n")
