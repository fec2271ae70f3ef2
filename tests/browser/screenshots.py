"""Screenshots for docs/assessing.md and docs/organising.md, taken by the browser tests.

The tests that check a screen also photograph it, so the pictures in the docs show what the
tests saw. They are written only when FOCAL_SCREENSHOTS is set (`FOCAL_SCREENSHOTS=1 pytest
tests/browser/...`), so that ordinary runs leave the tree as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Locator, Page

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def screenshot(page: Page, name: str, element: Locator | None = None) -> Path | None:
    """Save the viewport (or `element`) as docs/screenshots/NAME.png when FOCAL_SCREENSHOTS is
    set; the path written, or None when screenshots are off."""
    if not os.environ.get("FOCAL_SCREENSHOTS"):
        return None
    FOLDER.mkdir(parents=True, exist_ok=True)
    path = FOLDER / f"{name}.png"
    if element is None:
        page.screenshot(path=path)
    else:
        element.screenshot(path=path)
    return path
