"""Every route answers with the security headers, whatever the status, user or method."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from focal.assessor.web.headers import CONTENT_SECURITY_POLICY

from ..conftest import login, make_test_app, seed

EXPECTED = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
# A value for every kind of URL variable the app's rules use.
SAMPLES = {"int": "1", "default": "1001", "path": "focal.css"}


def _urls(app: Flask) -> list[tuple[str, str]]:
    """(method, url) of every rule of the app, its variables filled with sample values."""
    found = []
    for rule in app.url_map.iter_rules():
        values = {}
        for name, converter in rule._converters.items():
            kind = type(converter).__name__.removesuffix("Converter").lower()
            values[name] = SAMPLES.get(kind, SAMPLES["default"])
        url = rule.build(values, append_unknown=False)
        assert url is not None
        path = url[1]
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((method, path))
    return found


def test_the_policy_allows_no_inline_script_and_no_framing() -> None:
    directives = dict(part.split(" ", 1) for part in CONTENT_SECURITY_POLICY.split("; "))
    assert directives["script-src"] == "'self' 'inline-speculation-rules'"
    assert "unsafe" not in directives["script-src"] and "unsafe" not in directives["style-src"]
    assert directives["frame-ancestors"] == "'none'" and directives["object-src"] == "'none'"


@pytest.mark.parametrize("who", ["anonymous", "alice", "olga"])
def test_every_route_sends_the_security_headers(seeded: Any, who: str) -> None:
    client = seeded.app.test_client()
    token = "" if who == "anonymous" else login(client, who)
    urls = _urls(seeded.app)
    assert len(urls) > 20  # the walk found the app's routes
    for method, url in urls:
        if url == "/logout":
            continue  # would end the session of the walk; checked on its own below
        response = client.open(url, method=method, headers={"X-CSRF-Token": token})
        for name, value in EXPECTED.items():
            assert response.headers.get(name) == value, (method, url, response.status_code, name)
        assert "Strict-Transport-Security" not in response.headers
        response.close()


def test_log_out_and_errors_carry_them_too(seeded: Any) -> None:
    client = seeded.app.test_client()
    token = login(client, "alice")
    for response in (
        client.get("/no/such/page"),
        client.post("/api/assignments/1/keywords", data="[" * 100),  # no CSRF: 400
        client.post("/logout", data={"csrf_token": token}),
    ):
        assert response.headers.get("X-Frame-Options") == "DENY", response.status_code


def test_secure_cookies_and_https_only_when_configured(
    tmp_path: Path, migrated_sqlite: Path
) -> None:
    secure = {"SESSION_COOKIE_SECURE": True}
    https = make_test_app(tmp_path, template=migrated_sqlite, config=secure)
    seed(https, tmp_path)
    client = https.test_client()
    response = client.get("/login", base_url="https://localhost")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    assert "Secure" in response.headers["Set-Cookie"]
