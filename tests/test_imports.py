"""Imports go one way: evaluation <- pooling <- assessor."""

from __future__ import annotations

import subprocess
import sys


def test_pure_packages_do_not_import_the_web_stack() -> None:
    code = (
        "import sys, importlib, pkgutil\n"
        "import evaluation, pooling\n"
        "for pkg in (evaluation, pooling):\n"
        "    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(info.name)\n"
        "web = ('flask', 'sqlalchemy', 'assessor')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in web)\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_focal_entry_point_is_cheap() -> None:
    code = (
        "import assessor.cli.main, sys\n"
        "print(','.join(m for m in ('flask', 'sqlalchemy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
