"""Display profiles: how a collection's XML elements are presented on the assessment screen.

A profile is data (a TOML file in `display_profiles/`, docs/profiles.md describes the format):
rules that map a tag, optionally its parent's tag and one of its attributes, to a presentation
(block, inline, heading, list, table part, folded, metadata), a CSS class and the few `data-`
attributes the page's stylesheet may show with `attr()`. Presentation only: the renderer never
adds or drops a character of the document's text (spec section 1), so whatever a profile wants
to show that is not in the text (speaker names, "Act 1, Scene 2") comes from CSS.

The collection's choice is `collections.display_profile`; NULL means "detect from each
document's root element" (`detect_profile`).
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree
from sqlalchemy import select
from sqlalchemy.orm import Session

from focal.assessor.campaign.errors import CampaignError
from focal.assessor.campaign.setup.profile_format import (
    DATA_ATTRIBUTES,
    DISPLAYS,
    FOLDING,
    MAX_DATA_VALUE,
    Profile,
    ProfileError,
    Rule,
    load_profile_file,
    parse_profile,
    parse_rule,
)
from focal.assessor.store.models import Collection

__all__ = [
    "DATA_ATTRIBUTES",
    "DEFAULT_PROFILE",
    "DISPLAYS",
    "FOLDING",
    "MAX_DATA_VALUE",
    "Profile",
    "ProfileError",
    "Rule",
    "detect_profile",
    "display_profile_of",
    "get_profile",
    "load_profile_file",
    "parse_profile",
    "parse_rule",
    "profile_names",
    "set_display_profile",
    "shipped_profiles",
]

PROFILE_DIRECTORY = Path(__file__).with_name("display_profiles")
DEFAULT_PROFILE = "default"


@cache
def shipped_profiles() -> dict[str, Profile]:
    """Every profile shipped in `display_profiles/`, by name (base profiles before extensions)."""
    profiles: dict[str, Profile] = {}
    pending = sorted(PROFILE_DIRECTORY.glob("*.toml"))
    while pending:
        waiting = []
        for path in pending:
            extends = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
            if extends is not None and extends not in profiles:
                waiting.append(path)
                continue
            profile = load_profile_file(path, profiles)
            profiles[profile.name] = profile
        if len(waiting) == len(pending):
            raise ProfileError(f"{waiting[0]}: extends a profile that is not shipped")
        pending = waiting
    return profiles


def profile_names() -> list[str]:
    """The names a collection's display profile may take."""
    return sorted(shipped_profiles())


def get_profile(name: str) -> Profile:
    """The shipped profile `name` (CampaignError listing the known names)."""
    profile = shipped_profiles().get(name)
    if profile is None:
        raise CampaignError(
            f"no display profile {name!r}: expected one of {', '.join(profile_names())}"
        )
    return profile


def detect_profile(root: etree._Element) -> str:
    """The profile a document's root element suggests (docs/profiles.md, "Detection").

    `play` → shakespeare; `article` with `front` (or `body` without a Wikipedia `name`) → jats;
    `article` with `name`, `bdy` or `header` → wikipedia (INEX 2006-2010 Wikipedia markup);
    anything else → default.
    """
    root_tag = _local(root.tag)
    if root_tag == "play":
        return "shakespeare"
    if root_tag != "article":
        return DEFAULT_PROFILE
    children = {_local(child.tag) for child in root if isinstance(child.tag, str)}
    if "front" in children:
        return "jats"
    if children & {"name", "bdy", "header"}:
        return "wikipedia"
    return "jats" if "body" in children else DEFAULT_PROFILE


def _local(tag: Any) -> str:
    return str(tag).rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower()


def display_profile_of(session: Session, collection_name: str) -> str | None:
    """The display profile chosen for the collection named `collection_name` (None: detected
    per document); CampaignError when there is no such collection.

    What `focal collection profile NAME` and `focal import collection` print.
    """
    return _collection(session, collection_name).display_profile


def set_display_profile(session: Session, collection_name: str, profile: str | None) -> Collection:
    """Choose `profile` for the collection named `collection_name` (None: detect per document).

    The function the CLI (`focal collection profile`) and the organiser's screens call.
    """
    if profile is not None:
        get_profile(profile)
    collection = _collection(session, collection_name)
    collection.display_profile = profile
    session.flush()
    return collection


def _collection(session: Session, name: str) -> Collection:
    collection = session.scalars(select(Collection).where(Collection.name == name)).first()
    if collection is None:
        raise CampaignError(f"no collection named {name!r}")
    return collection
