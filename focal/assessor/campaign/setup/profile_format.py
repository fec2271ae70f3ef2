"""The format of a display profile file (docs/profiles.md): rules, their checks, and reading.

A profile is a TOML document: `name`, `description`, optionally `extends` (a profile whose rules
follow this one's), and `[[rules]]`. Every value is checked when the file is read, and a
problem is one `ProfileError` naming the file and the rule: a profile can only choose among
fixed presentations, sanitised class names and the allow-listed `DATA_ATTRIBUTES`, so it can
neither add text nor markup nor an attribute such as `onclick` (focal/assessor/web/rendering.py
checks the allow-list again).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree

DISPLAYS = frozenset(
    [
        "block",
        "inline",
        "heading",
        "list",
        "list-item",
        "table",
        "row-group",
        "row",
        "cell",
        "folded",
        "metadata",
    ]
)
FOLDING = frozenset({"folded", "metadata"})
# The only `data-` attributes a profile may ask the renderer to carry over from the source (their
# values escaped): the stylesheet shows them with `attr()`. Nothing else of the source reaches
# the page, so a profile cannot add an event handler, a style or a link.
DATA_ATTRIBUTES = frozenset({"speaker", "name", "type"})
MAX_DATA_VALUE = 200  # characters of an attribute value carried over; the rest is cut

_NAME = re.compile(r"[a-z][a-z0-9-]{0,48}")
_CLASS = re.compile(r"[a-z][a-z0-9-]{0,48}")
_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,99}")
_RULE_KEYS = frozenset(
    [
        "tag",
        "parent",
        "attribute",
        "values",
        "display",
        "class",
        "level",
        "nest",
        "data",
        "changes_only",
        "label",
    ]
)


class ProfileError(ValueError):
    """A profile file that does not follow the format: the message names the file and rule."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One line of a profile: which elements it matches and how they are presented."""

    tag: str  # local name, lower case, or "*" for any
    parent: str | None = None  # local name of the parent element
    attribute: str | None = None  # the element must have this attribute...
    values: frozenset[str] | None = None  # ...with one of these values
    display: str = "block"
    css_class: str | None = None  # rendered as `pf-<class>`
    level: int = 1  # heading level; plus the number of `nest` ancestors
    nest: str | None = None
    data: tuple[tuple[str, str], ...] = ()  # (data name, source attribute)
    changes_only: frozenset[str] = frozenset()  # carried only when it changes among siblings
    label: str | None = None  # what a folded element is called (data-fold)

    def matches(self, parent: str | None, element: etree._Element) -> bool:
        """True when the element (its tag already matched) fits the parent and attribute tests."""
        if self.parent is not None and parent != self.parent:
            return False
        if self.attribute is None:
            return True
        value = element.get(self.attribute)
        return value is not None and (self.values is None or value in self.values)


@dataclass(frozen=True)
class Profile:
    """A named, ordered list of rules: the first rule that matches an element applies."""

    name: str
    description: str
    rules: tuple[Rule, ...]
    _by_tag: dict[str, tuple[tuple[int, Rule], ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def candidates(self, tag: str) -> tuple[tuple[int, Rule], ...]:
        """The rules (with their positions) that can match local name `tag`, in order."""
        found = self._by_tag.get(tag)
        if found is None:
            found = tuple((i, r) for i, r in enumerate(self.rules) if r.tag in (tag, "*"))
            self._by_tag[tag] = found
        return found

    def rule_for(
        self, tag: str, parent: str | None, element: etree._Element
    ) -> tuple[int, Rule] | None:
        """The first rule matching `element` (local name `tag`, parent's local name)."""
        for position, rule in self.candidates(tag):
            if rule.matches(parent, element):
                return position, rule
        return None


def _problem(where: str, message: str) -> ProfileError:
    return ProfileError(f"{where}: {message}")


def _text(raw: Mapping[str, Any], key: str, where: str, pattern: re.Pattern[str]) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not pattern.fullmatch(value):
        raise _problem(where, f"{key} = {value!r}: expected a name matching {pattern.pattern}")
    return value


def parse_rule(raw: Mapping[str, Any], where: str) -> Rule:
    """A rule from its TOML table; ProfileError naming `where` for anything unexpected."""
    unknown = set(raw) - _RULE_KEYS
    if unknown:
        raise _problem(where, f"unknown key(s) {', '.join(sorted(unknown))}")
    tag = _rule_tag(raw, where)
    display = raw.get("display", "block")
    if display not in DISPLAYS:
        raise _problem(where, f"display = {display!r}: expected one of {sorted(DISPLAYS)}")
    values = _rule_values(raw, where)
    level = raw.get("level", 1)
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 6:
        raise _problem(where, f"level = {level!r}: expected an integer from 1 to 6")
    data = _rule_data(raw, where)
    changes_only = raw.get("changes_only", [])
    if not isinstance(changes_only, list) or not set(changes_only) <= set(data):
        raise _problem(where, "changes_only: expected a list of names given in data")
    label = raw.get("label")
    if label is not None and not (isinstance(label, str) and 0 < len(label) <= 60):
        raise _problem(where, "label: expected a short string")
    return Rule(
        tag=tag.lower(),
        parent=(_text(raw, "parent", where, _XML_NAME) or "").lower() or None,
        attribute=_text(raw, "attribute", where, _XML_NAME),
        values=values,
        display=display,
        css_class=_text(raw, "class", where, _CLASS),
        level=level,
        nest=(_text(raw, "nest", where, _XML_NAME) or "").lower() or None,
        data=tuple(sorted(data.items())),
        changes_only=frozenset(changes_only),
        label=label,
    )


def _rule_tag(raw: Mapping[str, Any], where: str) -> str:
    """A rule's `tag`: a local name, or `*` for every element."""
    tag = raw.get("tag")
    if tag != "*":
        tag = _text(raw, "tag", where, _XML_NAME)
    if tag is None:
        raise _problem(where, "expected tag = a local name or '*'")
    return str(tag)


def _rule_values(raw: Mapping[str, Any], where: str) -> frozenset[str] | None:
    """A rule's `values` of its `attribute`: a non-empty list of strings, or none given."""
    values = raw.get("values")
    if values is None:
        return None
    if not (isinstance(values, list) and values and all(isinstance(v, str) for v in values)):
        raise _problem(where, "values: expected a non-empty list of strings")
    return frozenset(values)


def _rule_data(raw: Mapping[str, Any], where: str) -> dict[str, str]:
    """A rule's `data`: allow-listed data names (`DATA_ATTRIBUTES`) = source attribute names."""
    data = raw.get("data", {})
    if not isinstance(data, dict):
        raise _problem(where, "data: expected a table of data name = source attribute")
    for name, source in data.items():
        if name not in DATA_ATTRIBUTES:
            raise _problem(where, f"data-{name} is not carried: allowed {sorted(DATA_ATTRIBUTES)}")
        if not isinstance(source, str) or not _XML_NAME.fullmatch(source):
            raise _problem(where, f"data.{name} = {source!r}: expected an attribute name")
    return data


def parse_profile(raw: Mapping[str, Any], where: str, base: Profile | None = None) -> Profile:
    """A profile from its TOML document; `base` is the profile it `extends` (its rules follow)."""
    name = _text(raw, "name", where, _NAME)
    if name is None:
        raise _problem(where, "expected name = a lower-case profile name")
    unknown = set(raw) - {"name", "description", "extends", "rules"}
    if unknown:
        raise _problem(where, f"unknown key(s) {', '.join(sorted(unknown))}")
    rules = raw.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        raise _problem(where, "rules: expected [[rules]] tables")
    own = tuple(parse_rule(r, f"{where}: rule {i}") for i, r in enumerate(rules, start=1))
    return Profile(name, str(raw.get("description", "")), own + (base.rules if base else ()))


def load_profile_file(path: Path, known: Mapping[str, Profile] | None = None) -> Profile:
    """Read one profile file; `extends` names a profile of `known`."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise ProfileError(f"{path}: {error}") from None
    base = None
    extends = raw.get("extends")
    if extends is not None:
        base = (known or {}).get(extends)
        if base is None:
            raise ProfileError(f"{path}: extends = {extends!r}: no such profile (load it first)")
    return parse_profile(raw, str(path), base)
