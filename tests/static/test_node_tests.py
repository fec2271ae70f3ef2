"""The browser's outbox and its sending, under node's own test runner (`node --test`).

`static/outbox.js`, `static/assess/pending.js` and `static/assess/delivery.js` take their
storage, fetch, clock and Web Locks as parameters, so the `*.test.mjs` files beside this one
run them under node with fakes (`fakes.mjs`): the answers of docs/api.md, the retry delays (a
fake clock, no real waiting) and the order of docs/architecture.md, "The assessment screen: one
highlight, end to end", step 3. Each file is one test here; node's report is the message when
it fails.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
NODE_TESTS = sorted(HERE.glob("*.test.mjs"))


def test_the_node_tests_are_found() -> None:
    assert {path.name for path in NODE_TESTS} >= {
        "delivery.test.mjs",
        "order.test.mjs",
        "outbox.test.mjs",
    }


@pytest.mark.parametrize("script", NODE_TESTS, ids=[path.name for path in NODE_TESTS])
def test_node_test_file_passes(script: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: `make system-packages` installs Debian's nodejs")
    # A timeout, since a sender that never stops would keep node busy without end.
    run = subprocess.run(
        [node, "--test", "--test-reporter=spec", str(script)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=HERE,
    )
    assert run.returncode == 0, run.stdout + run.stderr
