"""Pages cite papers by author and year (docs/references.md), never as "seed NNN": the words of
every template, its Jinja comments left out."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"


def test_no_page_cites_a_paper_as_a_seed() -> None:
    pages = sorted(TEMPLATES.rglob("*.html"))
    assert len(pages) > 10  # the scan found the templates at all
    cited = [
        f"{page.relative_to(TEMPLATES)}: {match[0]}"
        for page in pages
        for match in re.finditer(
            r"seed \d{3}",
            re.sub(r"\{#.*?#\}", "", page.read_text(encoding="utf-8"), flags=re.DOTALL),
            re.IGNORECASE,
        )
    ]
    assert not cited, cited
