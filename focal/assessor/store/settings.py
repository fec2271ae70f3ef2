"""The campaign's settings: how highlights merge and what the assessment screen offers.

A database is one campaign, so its settings are one row (id 1); a database without the row
has the defaults. `merge_across_punctuation` extends the ATOM rule to highlights separated only
by whitespace and punctuation (`focal.evaluation.formats.records.merge_passages`, seed 003 §4.2.2);
`runs_outline` lets assessors see which parts of an article the runs retrieved, which some
organisers switch off so that the runs cannot steer the assessors (spec section 6), and is off
by default: INEX and TREC kept assessors blind to the systems; `done_without_passage` says what
"Done" does on an article with no passage: ask the assessor (`"ask"`, the default) or mark it
not relevant at once (`"not_relevant"`), never leave it unjudged silently (docs/assessing.md).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from sqlalchemy import String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from focal.assessor.store.base import Base
from focal.assessor.store.upserts import upsert

SETTINGS_ID = 1  # the one row
DONE_RULES = ("ask", "not_relevant")
"""What "Done" may do on an article with no passage; the first is the default."""


class CampaignSettingsRow(Base):
    """The campaign's one row of settings (absent: every default)."""

    __tablename__ = "campaign_settings"
    id: Mapped[int] = mapped_column(primary_key=True)
    merge_across_punctuation: Mapped[bool] = mapped_column(default=True)
    runs_outline: Mapped[bool] = mapped_column(default=False)
    done_without_passage: Mapped[str] = mapped_column(String(20), default=DONE_RULES[0])


@dataclass(frozen=True, slots=True)
class CampaignSettings:
    """What the organiser chose for the campaign (the defaults when nothing was chosen)."""

    merge_across_punctuation: bool = True
    runs_outline: bool = False
    done_without_passage: str = DONE_RULES[0]


def read_settings(session: Session) -> CampaignSettings:
    """The campaign's settings, or the defaults when none were saved."""
    row = session.scalar(select(CampaignSettingsRow).where(CampaignSettingsRow.id == SETTINGS_ID))
    if row is None:
        return CampaignSettings()
    done = row.done_without_passage if row.done_without_passage in DONE_RULES else DONE_RULES[0]
    return CampaignSettings(row.merge_across_punctuation, row.runs_outline, done)


def save_settings(session: Session, settings: CampaignSettings) -> None:
    """Store `settings` as the campaign's (the caller commits); a first save racing another
    inserts the row once (`upserts.upsert`), the last save's values kept."""
    upsert(session, CampaignSettingsRow, [{"id": SETTINGS_ID, **asdict(settings)}], ["id"])
