"""axe-core (installed by `npm ci` from package-lock.json) run in the page under test.

`violations(page)` injects node_modules/axe-core/axe.min.js into the page Playwright shows and
returns axe's violations for WCAG 2.0, 2.1 and 2.2 at levels A and AA, each as
"rule-id: help (targets)" so that a failing assertion names what to fix. `rules` narrows the run
to some rule ids (for instance ``["target-size"]``, which axe tags as WCAG 2.2 AA).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]


def violations(page: Page, rules: list[str] | None = None) -> list[str]:
    """axe's violations of the page as shown now, one readable line each (empty when none)."""
    if not AXE.exists():
        pytest.skip(f"{AXE} is absent (make test installs it with npm ci)")
    # Evaluated through the DevTools protocol, which the pages' Content-Security-Policy (no inline
    # scripts) does not govern, unlike a <script> tag.
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    options: dict[str, Any] = (
        {"runOnly": {"type": "rule", "values": rules}}
        if rules
        else {"runOnly": {"type": "tag", "values": WCAG_AA}}
    )
    found = page.evaluate("options => axe.run(document, options)", options)
    return [
        f"{item['id']}: {item['help']} "
        f"({', '.join(str(node['target']) for node in item['nodes'][:5])})"
        for item in found["violations"]
    ]
