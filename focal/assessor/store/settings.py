"""The campaign's settings: how highlights merge and what the assessment screen offers.

A database is one campaign, so its settings are one row (id 1); a database without the row
has the defaults. `merge_across_punctuation` extends the ATOM rule to highlights separated only
by whitespace and punctuation (`focal.evaluation.formats.records.merge_passages`, seed 003 §4.2.2);
`runs_outline` lets assessors see which parts of an article the runs retrieved, which some
organisers switch off so that the runs cannot steer the assessors (spec section 6).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Mapped, Session, mapped_column

from focal.assessor.store.base import Base

SETTINGS_ID = 1  # the one row


class CampaignSettingsRow(Base):
    """The campaign's one row of settings (absent: every default)."""

    __tablename__ = "campaign_settings"
    id: Mapped[int] = mapped_column(primary_key=True)
    merge_across_punctuation: Mapped[bool] = mapped_column(default=True)
    runs_outline: Mapped[bool] = mapped_column(default=True)


@dataclass(frozen=True, slots=True)
class CampaignSettings:
    """What the organiser chose for the campaign (the defaults when nothing was chosen)."""

    merge_across_punctuation: bool = True
    runs_outline: bool = True


def read_settings(session: Session) -> CampaignSettings:
    """The campaign's settings, or the defaults when none were saved."""
    row = session.scalar(select(CampaignSettingsRow).where(CampaignSettingsRow.id == SETTINGS_ID))
    if row is None:
        return CampaignSettings()
    return CampaignSettings(row.merge_across_punctuation, row.runs_outline)


def save_settings(session: Session, settings: CampaignSettings) -> None:
    """Store `settings` as the campaign's (the caller commits)."""
    row = session.get(CampaignSettingsRow, SETTINGS_ID)
    if row is None:
        row = CampaignSettingsRow(id=SETTINGS_ID)
        session.add(row)
    row.merge_across_punctuation = settings.merge_across_punctuation
    row.runs_outline = settings.runs_outline
