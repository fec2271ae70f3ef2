"""The deploy/ recipe's stack started on this machine, for benchmarks/assessor_load.py.

Redis (a throw-away `redis-server` on a free port), one or more gunicorn groups (`focal serve
--workers N --keep-alive 75` with deploy/focal.env's settings, as deploy/systemd/focal.service
starts it) and Debian's nginx with deploy/nginx/focal.conf, its ports and certificate
replaced as tests/test_deploy.py replaces them, and one `server` line in the upstream per
gunicorn group (two groups stand for two machines sharing PostgreSQL and Redis). nginx runs
`worker_processes auto`, as Debian's own nginx.conf sets it. Not a benchmark by itself: run
assessor_load.py.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = Path("/usr/sbin/nginx")
REDIS = Path("/usr/bin/redis-server")
OPENSSL = Path("/usr/bin/openssl")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, process: subprocess.Popen[bytes], what: str, log: Path) -> None:
    """Until `port` accepts a connection; a clear error when `process` ended or 60 s passed."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
    raise RuntimeError(f"{what} did not start on port {port}: {tail}")


def missing() -> str | None:
    """What this machine lacks to run the stack, or None."""
    for program in (NGINX, REDIS, OPENSSL):
        if not program.exists():
            return f"{program} is absent (Debian's nginx, redis-server and openssl are needed)"
    return None


def deploy_settings() -> dict[str, str]:
    """deploy/focal.env's KEY="VALUE" lines (each double-quoted, no shell expansion)."""
    settings = {}
    for line in (DEPLOY / "focal.env").read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r'(FOCAL_[A-Z_]+)="([^"]*)"', line)
        if match:
            settings[match[1]] = match[2]
    return settings


@contextmanager
def redis(workdir: Path) -> Iterator[str]:
    port = free_port()
    log = workdir / "redis.log"
    process = subprocess.Popen(
        [str(REDIS), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
         "no", "--dir", str(workdir), "--logfile", str(log)],
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for_port(port, process, "redis-server", log)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=30)


@contextmanager
def gunicorn(env: dict[str, str], workers: int, log: Path) -> Iterator[int]:
    """`focal serve --workers N` as focal.service starts it; yields its port."""
    port = free_port()
    focal = Path(sys.executable).with_name("focal")
    command = [str(focal), "serve", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--workers", str(workers), "--keep-alive", "75"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        start_new_session=True,
    )
    try:
        wait_for_port(port, process, "focal serve", log)
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def site(workdir: Path, https: int, upstreams: list[int]) -> str:
    """deploy/nginx/focal.conf with this machine's ports, a self-signed certificate and one
    upstream server per gunicorn group."""
    certificate, key = workdir / "cert.pem", workdir / "key.pem"
    subprocess.run(
        [str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(certificate)],
        check=True,
        capture_output=True,
    )  # fmt: skip
    text = (DEPLOY / "nginx" / "focal.conf").read_text(encoding="utf-8")
    text = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", text)
    text = text.replace("listen 80;", f"listen 127.0.0.1:{free_port()};")
    text = text.replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl")
    servers = "\n    ".join(f"server 127.0.0.1:{port};" for port in upstreams)
    text = text.replace("server 127.0.0.1:8000;", servers)
    text = text.replace("/etc/letsencrypt/live/focal.example.org/fullchain.pem", str(certificate))
    text = text.replace("/etc/letsencrypt/live/focal.example.org/privkey.pem", str(key))
    return text.replace("focal.example.org", "localhost")


@contextmanager
def nginx(workdir: Path, upstreams: list[int]) -> Iterator[int]:
    """Debian's nginx in the foreground with only Focal's site; yields its https port."""
    prefix = workdir / "nginx"
    (prefix / "logs").mkdir(parents=True)
    port = free_port()
    (prefix / "focal.conf").write_text(site(workdir, port, upstreams), encoding="utf-8")
    (prefix / "nginx.conf").write_text(
        "user root;\nworker_processes auto;\npid nginx.pid;\nerror_log logs/error.log;\n"
        "events { worker_connections 4096; }\n"
        "http {\n  access_log off;\n"
        "  client_body_temp_path tmp_body; proxy_temp_path tmp_proxy;\n"
        "  fastcgi_temp_path tmp_fastcgi; uwsgi_temp_path tmp_uwsgi; scgi_temp_path tmp_scgi;\n"
        "  include focal.conf;\n}\n",
        encoding="utf-8",
    )
    process = subprocess.Popen(
        [str(NGINX), "-p", str(prefix), "-c", "nginx.conf", "-g", "daemon off;"],
        stderr=(prefix / "logs" / "stderr.log").open("wb"),
    )
    try:
        wait_for_port(port, process, "nginx", prefix / "logs" / "error.log")
        yield port
    finally:
        process.send_signal(signal.SIGQUIT)
        process.wait(timeout=30)


@contextmanager
def stack(database_url: str, workdir: Path, groups: int, workers: int) -> Iterator[int]:
    """Redis, `groups` gunicorn groups of `workers` each, nginx; yields nginx's https port."""
    with ExitStack() as stack_of:
        redis_url = stack_of.enter_context(redis(workdir))
        kept = {k: v for k, v in os.environ.items() if not k.startswith("FOCAL_")}
        env = kept | deploy_settings()
        env |= {
            "FOCAL_INSTANCE": str(workdir / "instance"),
            "FOCAL_DATABASE_URL": database_url,
            "FOCAL_REDIS_URL": redis_url,
            "FOCAL_IMPORT_ROOTS": str(workdir),
            "FOCAL_SECRET_KEY": "bench",
        }
        ports = [
            stack_of.enter_context(gunicorn(env, workers, workdir / f"gunicorn{group}.log"))
            for group in range(groups)
        ]
        yield stack_of.enter_context(nginx(workdir, ports))
