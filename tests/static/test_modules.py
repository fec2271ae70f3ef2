"""The browser scripts are native ES modules with one entry per page (docs/assessor.md, "Scripts").

Templates load `static/` scripts only as `<script type="module">` (htmx, vendored, aside), and
every script in `static/` is reached from such an entry through `import` statements that name
files that exist: a script nothing imports would never run, and a missing one breaks the page.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

REPOSITORY = Path(__file__).resolve().parents[2]
STATIC = REPOSITORY / "static"
TEMPLATES = REPOSITORY / "templates"

SCRIPT_TAG = re.compile(
    r"<script\b[^>]*\bsrc=\"\{\{ url_for\('static', filename='([^']+)'\) \}\}\"[^>]*>"
)
IMPORT = re.compile(r'^import\s+(?:[^";]*?\s+from\s+)?"([^"]+)";', re.MULTILINE)


def own_scripts() -> set[str]:
    return {
        path.relative_to(STATIC).as_posix()
        for path in STATIC.rglob("*.js")
        if "vendor" not in path.relative_to(STATIC).parts
    }


def entries() -> dict[str, str]:
    """Each script a template loads from static/ (vendor aside), with its <script> tag."""
    found: dict[str, str] = {}
    for template in TEMPLATES.rglob("*.html"):
        for match in SCRIPT_TAG.finditer(template.read_text(encoding="utf-8")):
            if not match.group(1).startswith("vendor/"):
                found[match.group(1)] = match.group(0)
    return found


def imports(script: str) -> list[str]:
    text = (STATIC / script).read_text(encoding="utf-8")
    folder = PurePosixPath(script).parent
    resolved = []
    for specifier in IMPORT.findall(text):
        assert specifier.startswith((".", "/")), f"{script}: bare specifier {specifier!r}"
        parts: list[str] = list(folder.parts)
        for part in PurePosixPath(specifier).parts:
            if part == "..":
                parts.pop()
            elif part != ".":
                parts.append(part)
        resolved.append("/".join(parts))
    return resolved


def test_templates_load_only_module_entries() -> None:
    loaded = entries()
    assert "assess/main.js" in loaded and "assessor-lists.js" in loaded
    for script, tag in loaded.items():
        assert 'type="module"' in tag, tag
        assert script in own_scripts(), f"{tag} names a file that is not in static/"


def reached_from(*starts: str) -> set[str]:
    """Every script that `starts` import, directly or not (each checked to exist)."""
    scripts = own_scripts()
    reached: set[str] = set()
    todo = list(starts)
    while todo:
        script = todo.pop()
        if script in reached:
            continue
        assert script in scripts, f"{script} is imported but absent from static/"
        reached.add(script)
        todo.extend(imports(script))
    return reached


def test_every_script_is_imported_from_an_entry_and_every_import_exists() -> None:
    assert own_scripts() - reached_from(*entries()) == set(), "scripts no entry module imports"


def test_the_article_page_runs_its_panels_scripts() -> None:
    """The article page's one entry brings the note panel, the fold control and view events."""
    article = reached_from("assess/main.js")
    assert {"notes.js", "profiles.js", "view-events.js", "outbox.js"} <= article
    assert reached_from("assessor-lists.js") == {"assessor-lists.js", "outbox.js"}
