"""An organiser's campaign set up entirely in the browser, as reusable steps.

`empty_campaign` starts a live site on an empty database made the way the README says
(`focal init-db`, then `focal users add NAME --role organiser --password-file F`); the other
functions are what an organiser does on the Import, Pools, Users and Matrix pages, each waiting
until the page says it is done. A whole-campaign walkthrough can chain them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from playwright.sync_api import Browser, Page, expect

from focal.assessor.cli.main import main
from focal.assessor.web.app import create_app

from .conftest import served_app

DEMO = Path(__file__).resolve().parents[2] / "demo"
IMPORT_TIMEOUT = 60_000  # milliseconds: a whole collection on a busy machine


@dataclass
class Campaign:
    url: str
    app: Any
    organiser: str
    password: str


@contextmanager
def empty_campaign(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    organiser: str = "olga",
    password: str = "olga's password",
) -> Iterator[Campaign]:
    """A served, empty campaign whose only account is one organiser (made with the CLI)."""
    monkeypatch.setenv("FOCAL_DATABASE_URL", f"sqlite:///{tmp_path / 'campaign.sqlite'}")
    monkeypatch.setenv("FOCAL_SECRET_KEY", "campaign-steps")
    secret = tmp_path / "organiser-password.txt"
    secret.write_text(password + "\n", encoding="utf-8")
    runner = CliRunner()
    for command in (
        ["init-db"],
        ["users", "add", organiser, "--role", "organiser", "--password-file", str(secret)],
    ):
        result = runner.invoke(main, command)
        assert result.exit_code == 0, result.output
    app = create_app()
    app.instance_path = str(tmp_path / "instance")  # uploads are kept in instance/data
    with served_app(app) as url:
        yield Campaign(url, app, organiser, password)


def log_in(browser: Browser, campaign: Campaign, name: str, password: str, **context: Any) -> Page:
    """A new browser context (`context`: Playwright's options, e.g. a viewport or touch) logged
    in through the log-in form."""
    page = browser.new_context(**context).new_page()
    page.goto(f"{campaign.url}/login")
    page.fill('input[name="name"]', name)
    page.fill('input[name="password"]', password)
    page.click('button[type="submit"]')
    page.wait_for_load_state()
    expect(page.locator("span.user")).to_contain_text(name)
    return page


def _import(page: Page, campaign: Campaign, input_id: str, files: Sequence[Path]) -> str:
    """Choose `files` in the upload field `input_id`, submit, and wait for the job to end."""
    page.goto(f"{campaign.url}/organiser/import")
    field = page.locator(f"#{input_id}")
    field.set_input_files([str(path) for path in files])
    field.locator("xpath=ancestor::form").locator('button[type="submit"]').click()
    ended = page.locator('.import-job[data-status="done"], .import-job[data-status="failed"]')
    ended.wait_for(timeout=IMPORT_TIMEOUT)
    return ended.inner_text()


def upload_collection(page: Page, campaign: Campaign, directory: Path = DEMO / "collection") -> str:
    """Upload every article of `directory`; the job's final message."""
    return _import(page, campaign, "collection-files", sorted(directory.glob("*.xml")))


def upload_topics(page: Page, campaign: Campaign, file: Path = DEMO / "topics.xml") -> str:
    return _import(page, campaign, "topics-file", [file])


def upload_runs(page: Page, campaign: Campaign, files: Sequence[Path] | None = None) -> str:
    chosen = files if files is not None else sorted((DEMO / "runs").glob("*.run"))
    return _import(page, campaign, "runs-files", chosen)


def build_pools(
    page: Page,
    campaign: Campaign,
    method: str = "topn",
    size: int = 20,
    topics: Sequence[str] = (),
) -> str:
    """Build pools on the Pools page (n for topn, k for depth); the summary shown."""
    page.goto(f"{campaign.url}/organiser/pools")
    page.select_option("#pool-method", method)
    page.fill("#pool-depth" if method == "depth" else "#pool-size", str(size))
    for topic in topics:
        page.check(f'input[name="topic"][value="{topic}"]')
    page.click('#pools button[type="submit"]')
    summary = page.locator("#pools .outcome")
    summary.wait_for()
    return summary.inner_text()


def add_user(page: Page, campaign: Campaign, name: str, role: str, password: str) -> None:
    """Add a user on the Users page and wait for the confirmation."""
    page.goto(f"{campaign.url}/organiser/users")
    page.fill("#user-name", name)
    page.select_option("#user-role", role)
    page.fill("#user-password", password)
    page.click('section.accounts button[type="submit"]')
    expect(page.locator("#accounts .outcome")).to_have_text(f"User {name} ({role}) added.")


def assign(page: Page, campaign: Campaign, topic: str, assessor: str) -> None:
    """Tick the matrix cell of `topic` and `assessor` and wait until it shows ticked."""
    if "/organiser/matrix" not in page.url:
        page.goto(f"{campaign.url}/organiser/matrix")
    cell = f'button[data-topic="{topic}"][data-assessor="{assessor}"]'
    page.click(cell)
    expect(page.locator(cell)).to_have_attribute("aria-pressed", "true")
