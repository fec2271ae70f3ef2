"""`focal users token --expires`, `focal users revoke` and `focal users disable|enable`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from focal.assessor.web.app import create_app


@pytest.fixture
def cli(cli: Any, tmp_path: Path) -> Any:
    """The commands on a database with assessor alice."""
    invoke = cli
    (tmp_path / "pw").write_text("a good password\n", encoding="utf-8")
    invoke("init-db")
    invoke("users", "add", "alice", "--role", "assessor", "--password-file", str(tmp_path / "pw"))
    return invoke


def _status(token: str) -> int:
    client = create_app().test_client()
    headers = {"Authorization": f"Bearer {token}"}
    return client.get("/api/assignments", headers=headers).status_code


def test_a_token_gets_an_id_and_the_configured_default_expiry(
    cli: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    issued = cli("users", "token", "alice")
    assert issued.stdout.strip().startswith("focal_") and len(issued.stdout.splitlines()) == 1
    assert "token id 1 for alice, expires" in issued.stderr
    monkeypatch.setenv("FOCAL_TOKEN_LIFETIME", "never")
    assert "never expires" in cli("users", "token", "alice").stderr
    assert "token id 3" in cli("users", "token", "alice", "--expires", "12h").stderr


def test_a_bad_lifetime_is_one_line_and_exit_2(cli: Any) -> None:
    refused = cli("users", "token", "alice", "--expires", "soon", code=2)
    assert refused.stderr.count("\n") == 1 and "soon" in refused.stderr
    assert refused.stdout == ""


def test_revoke_one_token_then_all(cli: Any) -> None:
    first = cli("users", "token", "alice").stdout.strip()
    second = cli("users", "token", "alice").stdout.strip()
    assert _status(first) == _status(second) == 200
    assert "1 token(s) of alice revoked" in cli("users", "revoke", "alice", "--token", "1").stdout
    assert (_status(first), _status(second)) == (401, 200)
    assert "no token 1" in cli("users", "revoke", "alice", "--token", "1", code=2).stderr
    cli("users", "revoke", "alice")
    assert _status(second) == 401


def test_disable_ends_tokens_and_is_listed(cli: Any) -> None:
    token = cli("users", "token", "alice").stdout.strip()
    cli("users", "disable", "alice")
    assert _status(token) == 401
    assert cli("users", "list").stdout == "alice\tassessor\tdisabled\n"
    cli("users", "enable", "alice")
    assert cli("users", "list").stdout == "alice\tassessor\n"
    assert _status(cli("users", "token", "alice").stdout.strip()) == 200
