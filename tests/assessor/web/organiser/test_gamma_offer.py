"""The agreement page of a topic offers γ without importing it: whether the optional package is
installed is found with `importlib.util.find_spec` (focal.evaluation.statistics.agreement.gamma
`available`), since importing cvxpy and numba took 24-45 s on the first page after each start.

Run in a fresh interpreter: in the test process another test may have imported them already.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from focal.evaluation.statistics.agreement import gamma

RENDER = """
import json, sys, time
from click.testing import CliRunner
from focal.assessor.cli.main import main
from focal.assessor.web.app import create_app
assert CliRunner().invoke(main, ["demo", "--no-serve"]).exit_code == 0
client = create_app().test_client()
login = client.get("/login").get_data(as_text=True)
token = login.split('name="csrf-token" content="')[1].split('"')[0]
client.post("/login", data={"name": "organiser", "password": "organiser", "csrf_token": token})
started = time.perf_counter()
page = client.get("/organiser/agreement/9001")
seconds = time.perf_counter() - started
modules = sorted(name for name in sys.modules if name.split(".")[0] in GAMMA_MODULES)
print(json.dumps({"status": page.status_code, "seconds": seconds, "modules": modules,
                  "offered": 'id="gamma-link"' in page.get_data(as_text=True)}))
"""


def test_rendering_the_agreement_page_imports_no_gamma_module(tmp_path: Path) -> None:
    if not gamma.available():
        pytest.skip("the optional γ extra is absent: nothing to offer, nothing to import")
    env = {
        "FOCAL_DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite'}",
        "FOCAL_SECRET_KEY": "gamma-offer",
        "FOCAL_INSTANCE": str(tmp_path / "instance"),
        "PATH": "/usr/bin:/bin",
    }
    code = RENDER.replace("GAMMA_MODULES", repr(set(gamma.GAMMA_MODULES)))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["status"] == 200 and result["offered"]  # "Add γ" is offered ...
    assert result["modules"] == []  # ... and none of its modules was imported to decide it
    # Cold, the page took 24-45 s with the imports; generous here for a loaded machine.
    assert result["seconds"] < 10
