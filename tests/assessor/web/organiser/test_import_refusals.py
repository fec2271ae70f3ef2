"""An import job refused for its archive says why in words (before: "the import failed
unexpectedly (RuntimeError: ... is encrypted ...)") and keeps no file."""

from __future__ import annotations

import io
import zipfile

from flask.testing import FlaskClient

from .test_campaign_imports import empty_app, olga, outcome, post, uploads  # noqa: F401

ARTICLE = b"<article><title>A</title><bdy><p>Text.</p></bdy></article>"


def _encrypted_zip() -> io.BytesIO:
    """A zip whose one member is flagged encrypted (general-purpose bit 0 of its local and
    central headers, at offsets 6 and 8): zipfile writes no encrypted member itself."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("1.xml", ARTICLE)
    data = bytearray(buffer.getvalue())
    for signature, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        data[data.find(signature) + offset] |= 1
    return io.BytesIO(bytes(data))


def test_an_encrypted_archive_ends_the_job_with_its_cause_in_words(
    olga: tuple[FlaskClient, str],  # noqa: F811
) -> None:
    client, token = olga
    answer = post(
        client, token, "/organiser/import/collection", files=[(_encrypted_zip(), "c.zip")]
    )
    status, html = outcome(client, answer)
    assert status == "failed"
    assert "is encrypted (password-protected)" in html and "unexpectedly" not in html
    assert uploads(client.application) == []
