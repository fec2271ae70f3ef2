"""The deployment recipe of deploy/, run: Debian's nginx with TLS in front of `focal serve
--workers 2` (gunicorn) configured by deploy/focal.env.

The site file and the environment file are used as shipped, with only what names this machine
replaced: the server name, ports, the certificate (self-signed, made here by openssl), the
instance folder, a SQLite database and the session's throw-away Redis; the per-address limit is
lowered to 2 so that it is reached quickly. Through nginx, an assessor logs in and highlights
(the operations API), an organiser exports the qrels with that highlight in them, https gives
`Secure` cookies and HSTS, plain http is redirected to https, and the log-in limit counts the
real client's address: clients connect from different loopback addresses (127.0.0.2, .3), and
a forged `X-Forwarded-For` changes nothing.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from focal import settings

from .conftest import REPOSITORY, serving, wait_until

NGINX = Path("/usr/sbin/nginx")
SYSTEMD_ENVIRONMENT = Path(
    "/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator"
)
OPENSSL = Path("/usr/bin/openssl")
DEPLOY = REPOSITORY / "deploy"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _by_shell(path: Path) -> subprocess.CompletedProcess[str]:
    """A command run by hand with the environment file `path`, as docs/deploy.md says
    (`sh -ac '. FILE && exec COMMAND'`): the command prints its environment as JSON."""
    return subprocess.run(
        ["/bin/sh", "-ac", '. "$0" && exec "$1" -c "$2"', str(path), sys.executable,
         "import json, os; print(json.dumps(dict(os.environ)))"],
        env={},
        capture_output=True,
        text=True,
    )  # fmt: skip


def read_by_shell(path: Path) -> dict[str, str]:
    """The `FOCAL_` settings that the environment file `path` gives a command run by hand."""
    done = _by_shell(path)
    assert done.returncode == 0 and not done.stderr, done.stderr
    given: dict[str, str] = json.loads(done.stdout)
    return {key: value for key, value in given.items() if key.startswith("FOCAL_")}


def read_by_systemd(path: Path, folder: Path) -> dict[str, str]:
    """The `FOCAL_` settings that systemd reads in the environment file `path`, by its own
    parser: environment.d's generator (systemd-environment-d-generator(8)) reads files with the
    parser of `EnvironmentFile=` (systemd.exec(5)) and expands `$NAME` besides, which a file
    without `$` does not have; it prints each variable as a shell word."""
    if not SYSTEMD_ENVIRONMENT.exists():
        pytest.skip(f"reading as systemd does needs {SYSTEMD_ENVIRONMENT} (Debian's systemd)")
    (folder / "environment.d").mkdir(parents=True)
    shutil.copyfile(path, folder / "environment.d" / "focal.conf")
    done = subprocess.run(
        [str(SYSTEMD_ENVIRONMENT)], env={"XDG_CONFIG_HOME": str(folder)}, capture_output=True,
        text=True, check=True,
    )  # fmt: skip
    words = [word for line in done.stdout.splitlines() for word in shlex.split(line)]
    given = dict(word.partition("=")[::2] for word in words)
    return {key: value for key, value in given.items() if key.startswith("FOCAL_")}


def test_the_environment_file_gives_a_shell_what_it_gives_systemd(tmp_path: Path) -> None:
    by_shell = read_by_shell(DEPLOY / "focal.env")
    assert by_shell == read_by_systemd(DEPLOY / "focal.env", tmp_path / "shipped")
    assert any(" " in value for value in by_shell.values())  # values with spaces kept whole
    # The comparison tells: a value with spaces left unquoted is read otherwise by the shell.
    unquoted = tmp_path / "unquoted.env"
    unquoted.write_text("FOCAL_LOGIN_LIMIT_PER_NAME=10 per 15 minutes\n", encoding="utf-8")
    assert read_by_systemd(unquoted, tmp_path / "unquoted") == {
        "FOCAL_LOGIN_LIMIT_PER_NAME": "10 per 15 minutes"
    }
    assert _by_shell(unquoted).returncode != 0  # the shell runs `per` with the variable set


def test_the_environment_file_keeps_to_what_both_read_alike() -> None:
    """Each value in double quotes, without the characters a shell would expand and systemd
    keep (docs/deploy.md, "The environment file"); comments on lines of their own."""
    for line in (DEPLOY / "focal.env").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            assert re.fullmatch(r'FOCAL_[A-Z_]+="[^"$`\\]*"', line), line


def test_every_setting_of_the_environment_file_is_one_that_focal_checks() -> None:
    given = read_by_shell(DEPLOY / "focal.env")
    assert settings.unknown(given) == []
    assert settings.check(given).keys() == given.keys()  # and each value is of its form


def deploy_env(tmp_path: Path, redis_url: str) -> dict[str, str]:
    """deploy/focal.env read as a shell (and systemd) reads it, with this machine's paths put
    in."""
    settings = read_by_shell(DEPLOY / "focal.env")
    assert settings["FOCAL_TRUSTED_PROXIES"] == "1"
    assert "FOCAL_SESSION_COOKIE_SECURE" not in settings  # https follows from the proxy's word
    settings |= {
        "FOCAL_INSTANCE": str(tmp_path / "instance"),
        "FOCAL_DATABASE_URL": f"sqlite:///{tmp_path / 'focal.sqlite'}",
        "FOCAL_REDIS_URL": redis_url,
        "FOCAL_IMPORT_ROOTS": str(tmp_path),
        "FOCAL_LOGIN_LIMIT_PER_ADDRESS": "2 per 15 minutes",
    }
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("FOCAL_", "PYTHON"))}
    return kept | settings


def site(tmp_path: Path, https: int, plain: int, upstream: int) -> str:
    """deploy/nginx/focal.conf with this machine's ports and a self-signed certificate."""
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(certificate)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    text = (DEPLOY / "nginx" / "focal.conf").read_text(encoding="utf-8")
    text = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", text)  # no IPv6 here
    text = text.replace("listen 80;", f"listen 127.0.0.1:{plain};")
    text = text.replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl")
    text = text.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};")
    text = text.replace("/etc/letsencrypt/live/focal.example.org/fullchain.pem", str(certificate))
    text = text.replace("/etc/letsencrypt/live/focal.example.org/privkey.pem", str(key))
    return text.replace("focal.example.org", "localhost")


@contextmanager
def nginx(tmp_path: Path, site_text: str, port: int) -> Iterator[None]:
    """Debian's nginx with only this site, in the foreground, stopped on leaving."""
    prefix = tmp_path / "nginx"
    (prefix / "logs").mkdir(parents=True)
    (prefix / "focal.conf").write_text(site_text, encoding="utf-8")
    (prefix / "nginx.conf").write_text(
        "user root;\nworker_processes 1;\npid nginx.pid;\nerror_log logs/error.log;\n"
        "events { worker_connections 64; }\n"
        "http {\n  access_log logs/access.log;\n"
        "  client_body_temp_path tmp_body; proxy_temp_path tmp_proxy;\n"
        "  fastcgi_temp_path tmp_fastcgi; uwsgi_temp_path tmp_uwsgi; scgi_temp_path tmp_scgi;\n"
        "  include focal.conf;\n}\n",
        encoding="utf-8",
    )
    process = subprocess.Popen(
        [str(NGINX), "-p", str(prefix), "-c", "nginx.conf", "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )

    def up() -> bool:
        if process.poll() is not None:
            pytest.fail(f"nginx ended: {process.communicate()[1]!r}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    try:
        wait_until(up, 30, "nginx's port")
        yield
    finally:
        process.send_signal(signal.SIGQUIT)
        process.communicate(timeout=30)


@dataclass
class Browser:
    """An https client of one loopback address, keeping the session cookie."""

    port: int
    address: str
    cookies: dict[str, str] = field(default_factory=dict)
    last_set_cookie: list[str] = field(default_factory=list)

    def request(
        self, method: str, path: str, body: bytes | None = None, **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        context = ssl.create_default_context()
        context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
        connection = http.client.HTTPSConnection(
            "localhost", self.port, context=context, source_address=(self.address, 0), timeout=30
        )
        sent = {k.replace("_", "-"): v for k, v in headers.items()}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection.request(method, path, body, sent)
        response = connection.getresponse()
        data = response.read()
        self.last_set_cookie = response.headers.get_all("Set-Cookie") or []
        for cookie in self.last_set_cookie:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";")[0]
        connection.close()
        return response.status, dict(response.headers), data

    def csrf(self, path: str = "/login") -> str:
        status, _, page = self.request("GET", path)
        found = re.search(rb'name="csrf-token" content="([^"]+)"', page)
        assert status == 200 and found is not None, (status, page[:300])
        return found.group(1).decode()

    def log_in(self, name: str, password: str, **headers: str) -> tuple[int, dict[str, str]]:
        form = {"name": name, "password": password, "csrf_token": self.csrf()}
        status, answer, _ = self.request(
            "POST",
            "/login",
            urllib.parse.urlencode(form).encode(),
            Content_Type="application/x-www-form-urlencoded",
            **headers,
        )
        return status, answer


def _first_assignment(database_url: str) -> tuple[int, str, str]:
    """The demo assessor's first assignment, its first pooled article and that article's text."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from focal.assessor.store import db
    from focal.assessor.store.models import Assignment, Document, Pool, PoolEntry, User
    from focal.evaluation.text.document import Document as Parsed

    engine = db.make_engine(database_url)
    with Session(engine) as session:
        assignment = session.scalars(
            select(Assignment).join(User).where(User.name == "assessor").order_by(Assignment.id)
        ).first()
        assert assignment is not None
        entry = session.scalars(
            select(PoolEntry)
            .join(Pool)
            .where(Pool.topic_id == assignment.topic_id)
            .order_by(PoolEntry.position)
        ).first()
        assert entry is not None
        document = session.get_one(Document, entry.article)
        assert document.file is not None
        found = (assignment.id, document.id, Parsed.from_file(document.file).text)
    engine.dispose()
    return found


@pytest.mark.slow
def test_nginx_in_front_of_focal_serve_as_deploy_sets_it_up(tmp_path: Path, redis_url: str) -> None:
    for program in (NGINX, OPENSSL):
        if not program.exists():
            pytest.skip(f"the deployment test needs {program} (make system-packages installs it)")
    env = deploy_env(tmp_path, redis_url)
    focal = Path(sys.executable).with_name("focal")
    demo = subprocess.run(
        [str(focal), "demo", "--no-serve"], env=env, capture_output=True, text=True, timeout=300
    )
    assert demo.returncode == 0, demo.stderr
    assignment, article, text = _first_assignment(env["FOCAL_DATABASE_URL"])
    https, plain = _free_port(), _free_port()
    with (
        serving(env, "--workers", "2") as served,
        nginx(tmp_path, site(tmp_path, https, plain, served.port), https),
    ):
        # Plain http is sent to https.
        connection = http.client.HTTPConnection("127.0.0.1", plain, timeout=30)
        connection.request("GET", "/login?x=1", headers={"Host": "localhost"})
        moved = connection.getresponse()
        assert (moved.status, moved.getheader("Location")) == (
            301,
            "https://localhost/login?x=1",
        )
        connection.close()

        # An assessor logs in over https: Secure cookies, HSTS, a redirect staying on https.
        assessor = Browser(https, "127.0.0.2")
        status, answer = assessor.log_in("assessor", "assessor")
        assert status in (302, 303)
        location = answer["Location"]
        assert location.startswith(("/", "https://")), location
        assert assessor.last_set_cookie and all(
            "; Secure" in cookie for cookie in assessor.last_set_cookie
        )
        assert answer.get("Strict-Transport-Security") == "max-age=31536000"

        # ... and highlights 11 characters of an article (the operations API), from its first
        # word (a passage never starts or ends with whitespace: it would be trimmed).
        token = assessor.csrf("/topics")
        start = len(text) - len(text.lstrip())
        end = start + len(text[start : start + 11].rstrip())
        operation = {"op_id": "deploy-1", "op": "highlight", "start": start, "end": end,
                     "exact": text[start:end]}  # fmt: skip
        status, _, body = assessor.request(
            "POST",
            f"/api/assignments/{assignment}/documents/{article}/ops",
            json.dumps(operation).encode(),
            Content_Type="application/json",
            X_CSRF_Token=token,
        )
        assert status == 200, body
        assert json.loads(body)["passages"] == [[start, end]]

        # An organiser exports the qrels through the proxy: the highlight is in them.
        organiser = Browser(https, "127.0.0.2")
        assert organiser.log_in("organiser", "organiser")[0] in (302, 303)
        # (the demo's first topic is double-judged: the assessor's judgements are asked for)
        status, _, qrels = organiser.request("GET", "/organiser/export.qrels?assessor=assessor")
        assert status == 200
        lines = [line.split() for line in qrels.decode().splitlines()]
        passage = f"{start}:{end - start}"
        assert [line for line in lines if line[2] == article and passage in line[5:]], lines

        # The per-address limit (2 refused attempts) counts the real client's address.
        intruder, neighbour = Browser(https, "127.0.0.3"), Browser(https, "127.0.0.4")
        assert [intruder.log_in(f"nobody{n}", "wrong")[0] for n in range(2)] == [401, 401]
        assert intruder.log_in("nobody2", "wrong")[0] == 429
        # Another address is not held up, even claiming to be the first one.
        assert neighbour.log_in("nobody3", "wrong", X_Forwarded_For="127.0.0.3")[0] == 401
    assert b"Traceback" not in served.errors, served.errors.decode(errors="replace")
