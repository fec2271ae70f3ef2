"""Settings checked as `focal` starts (docs/deploy.md, "The environment file"): a bad value of any
kind stops `focal serve`, `focal worker` and `focal demo` (the real command, in a process of its
own) with one line naming the setting, the value and the form, exit code 2, before anything is
made; a name that is no setting is a warning naming the closest; a Redis that does not answer
and a busy port are refused at start in one line. Every address used is 127.0.0.1."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal import settings
from focal.assessor.cli.main import main

FOCAL = Path(sys.executable).with_name("focal")


def _env(tmp_path: Path, **given: str) -> dict[str, str]:
    """This process's environment without its `FOCAL_` settings, a database and an instance
    folder of the test's own (neither exists yet), and `given`."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("FOCAL_")}
    env |= {
        "FOCAL_DATABASE_URL": f"sqlite:///{tmp_path / 'start.sqlite'}",
        "FOCAL_SECRET_KEY": "start-checks",
        "FOCAL_INSTANCE": str(tmp_path / "instance"),
    }
    return env | given


def _run_all(env: dict[str, str], *commands: list[str]) -> list[tuple[int, str, float]]:
    """Each command (`focal` and its arguments) run at once: exit code, stderr, seconds taken."""
    started = time.monotonic()
    processes = [
        subprocess.Popen(
            [str(FOCAL), *command],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in commands
    ]
    results = []
    for process in processes:
        _, errors = process.communicate(timeout=120)
        results.append((process.returncode, errors, time.monotonic() - started))
    return results


def _bad_instance(tmp_path: Path) -> str:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    return str(tmp_path / "a-file")


# One bad value of each kind of setting: rate limit, URL, database URL, whole number, seconds,
# boolean, folders, folder, choice (of the web app and of evaluation), lifetime.
BAD = [
    ("FOCAL_LOGIN_LIMIT_PER_NAME", "10"),
    ("FOCAL_REDIS_URL", "localhost:6379"),
    ("FOCAL_DATABASE_URL", "focal.sqlite"),
    ("FOCAL_JOB_THREADS", "0"),
    ("FOCAL_JOB_TIME_LIMIT", "an hour"),
    ("FOCAL_SESSION_COOKIE_SECURE", "maybe"),
    ("FOCAL_IMPORT_ROOTS", "material"),
    ("FOCAL_INSTANCE", "<a file>"),
    ("FOCAL_JOB_WORKER", "sometimes"),
    ("FOCAL_KERNEL", "fortran"),
    ("FOCAL_TOKEN_LIFETIME", "30m"),
]


@pytest.mark.parametrize(("name", "text"), BAD, ids=[name for name, _ in BAD])
def test_a_bad_value_stops_serve_and_worker_in_one_line(
    tmp_path: Path, name: str, text: str
) -> None:
    text = _bad_instance(tmp_path) if text == "<a file>" else text
    env = _env(tmp_path, **{name: text})
    for code, errors, _ in _run_all(env, ["serve"], ["worker"]):
        assert code == 2, errors
        [line] = errors.splitlines()
        assert line.startswith(f"focal: {name}={text!r}: "), line
        assert line.endswith(f"expected {settings.BY_NAME[name].form}"), line
    assert not (tmp_path / "instance").exists() and not (tmp_path / "start.sqlite").exists()


def _use(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    """`env`'s `FOCAL_` settings, and no other, in this process's environment."""
    for name in list(os.environ):
        if name.upper().startswith("FOCAL_"):
            monkeypatch.delenv(name)
    for name, value in env.items():
        if name.startswith("FOCAL_"):
            monkeypatch.setenv(name, value)


def test_demo_and_eval_check_the_settings_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _use(monkeypatch, _env(tmp_path, FOCAL_LOGIN_LIMIT_PER_ADDRESS="50 a minute"))
    demo = CliRunner().invoke(main, ["demo", "--no-serve"])
    assert demo.exit_code == 2
    assert demo.stderr == (
        f"focal: FOCAL_LOGIN_LIMIT_PER_ADDRESS='50 a minute': expected {settings.RATE_FORM}\n"
    )
    assert not (tmp_path / "start.sqlite").exists()
    monkeypatch.setenv("FOCAL_LOGIN_LIMIT_PER_ADDRESS", "50 per minute")
    monkeypatch.setenv("FOCAL_START_METHOD", "fork-please")
    evaluation = CliRunner().invoke(main, ["measures"])
    assert evaluation.exit_code == 2 and evaluation.stdout == ""
    assert evaluation.stderr.startswith("focal: FOCAL_START_METHOD='fork-please': expected")


def test_a_name_that_is_no_setting_is_a_warning_with_the_closest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    misspelt = {"FOCAL_JOB_WROKER": "external", "FOCAL_RATELIMIT_STORAGE_URI": "redis://x:1/0"}
    _use(monkeypatch, _env(tmp_path, **misspelt))
    result = CliRunner().invoke(main, ["init-db"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "focal: warning: FOCAL_JOB_WROKER is not a setting of Focal and is ignored; did you mean "
        "FOCAL_JOB_WORKER?",
        "focal: warning: FOCAL_RATELIMIT_STORAGE_URI is not a setting of Focal and is ignored; "
        "did you mean FOCAL_REDIS_URL?",
    ]
    assert (tmp_path / "start.sqlite").exists()  # a warning does not stop the command


@pytest.fixture
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 bound but not listening (so no other program takes it meanwhile):
    a connection to it is refused."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield int(held.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port of 127.0.0.1 that accepts connections and never answers."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(16)
        yield int(listening.getsockname()[1])


@pytest.mark.parametrize("which", ["closed", "silent"])
def test_a_redis_that_does_not_answer_is_refused_at_start(
    tmp_path: Path, request: pytest.FixtureRequest, which: str
) -> None:
    port = request.getfixturevalue(f"{which}_port")
    url = f"redis://:hunter22@127.0.0.1:{port}/0"
    env = _env(tmp_path, FOCAL_REDIS_URL=url)
    commands = (["serve"], ["worker"], ["demo", "--no-serve"])
    for code, errors, seconds in _run_all(env, *commands):
        assert code == 2, errors
        [line] = errors.splitlines()
        shown = f"redis://:***@127.0.0.1:{port}/0"
        assert line.startswith(f"focal: FOCAL_REDIS_URL={shown!r}: Redis does not answer"), line
        assert seconds < 60  # the ping gives up after about 2 s, however busy the machine
    assert not (tmp_path / "instance").exists() and not (tmp_path / "start.sqlite").exists()


def test_a_busy_port_names_the_port_option(tmp_path: Path) -> None:
    env = _env(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = int(busy.getsockname()[1])
        results = _run_all(
            env, ["serve", "--port", str(port)], ["demo", "--port", str(port)],
            ["serve", "--workers", "2", "--port", str(port)],
        )  # fmt: skip
    expected = [
        f"focal: port {port} is in use: choose another with focal serve --port N\n",
        f"focal: port {port} is in use: choose another with focal demo --port N "
        "(make demo PORT=N)\n",
        f"focal: port {port} is in use: choose another with focal serve --port N\n",
    ]
    assert [(code, errors) for code, errors, _ in results] == [(2, line) for line in expected]
    assert not (tmp_path / "start.sqlite").exists()  # the demo stopped before making anything


def test_workers_without_posix_name_the_server_that_works(tmp_path: Path) -> None:
    """Where `fcntl` is missing (Windows), gunicorn cannot load: `focal serve --workers` says
    so in one line instead of a traceback."""
    without_fcntl = (
        "import importlib.abc, sys\n"
        "class Absent(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'fcntl':\n"
        "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
        "sys.modules.pop('fcntl', None)\n"
        "sys.meta_path.insert(0, Absent())\n"
        "from focal.assessor.cli.main import main\n"
        "sys.exit(main(['serve', '--workers', '2', '--port', sys.argv[1]]))\n"
    )
    with socket.socket() as busy:  # were gunicorn loaded, the port's check would answer
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = str(busy.getsockname()[1])
        done = subprocess.run(
            [sys.executable, "-c", without_fcntl, port],
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("focal: --workers serves with gunicorn, which runs on POSIX"), line
    assert "serve without --workers" in line
