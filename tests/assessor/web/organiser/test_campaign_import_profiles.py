"""The display profile chosen on the Import page (docs/profiles.md): stored, or refused by name.

The collection is our demo's (demo/collection); the profile names are the shipped ones.
"""

from __future__ import annotations

from flask.testing import FlaskClient
from sqlalchemy import select

from focal.assessor.store import db
from focal.assessor.store.models import Collection, Document

from .test_campaign_imports import (
    COLLECTION,
    count,
    demo_files,
    empty_app,
    olga,
    outcome,
    post,
    uploads,
)

__all__ = ["empty_app", "olga"]  # fixtures, imported for this module's tests


def stored_profile(client: FlaskClient, name: str) -> str | None:
    with db.session_scope(client.application) as session:
        return session.scalar(select(Collection.display_profile).where(Collection.name == name))


def test_the_form_offers_every_shipped_profile(olga: tuple[FlaskClient, str]) -> None:
    client, _token = olga
    page = client.get("/organiser/import").get_data(as_text=True)
    for name in ("default", "demo", "jats", "shakespeare", "wikipedia"):
        assert f'<option value="{name}">{name}</option>' in page
    assert '<option value="">detect from the articles</option>' in page


def test_an_uploaded_collection_keeps_the_chosen_profile(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    answer = post(
        client,
        token,
        "/organiser/import/collection",
        files=demo_files(),
        name="uploaded",
        profile="jats",
    )
    status, html = outcome(client, answer)
    assert status == "done", html
    assert stored_profile(client, "uploaded") == "jats"  # not what the demo's articles suggest


def test_without_a_choice_the_profile_is_detected(olga: tuple[FlaskClient, str]) -> None:
    client, token = olga
    status, html = outcome(
        client,
        post(client, token, "/organiser/import/collection", source="path", path=str(COLLECTION)),
    )
    assert status == "done", html
    assert stored_profile(client, "collection") == "wikipedia"


def test_an_unknown_profile_is_refused_by_name_and_nothing_is_kept(
    olga: tuple[FlaskClient, str],
) -> None:
    client, token = olga
    answer = post(
        client, token, "/organiser/import/collection", files=demo_files(), profile="poetry"
    )
    assert answer.status_code == 422
    assert "no display profile &#39;poetry&#39;" in answer.get_data(as_text=True)
    assert count(client.application, Document) == 0 and uploads(client.application) == []
