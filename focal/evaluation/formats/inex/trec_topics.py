"""TREC-style topic files: `<top>` blocks of SGML-like fields, not XML.

    <top>
    <num> Number: 301
    <title> international organized crime
    <desc> Description:
    Identify organizations that participate in ...
    <narr> Narrative:
    A relevant document must ...
    </top>

A field runs from its tag to the next tag; the labels `Number:`, `Description:` and
`Narrative:` are dropped, whitespace is collapsed. `<num>`, `<title>`, `<desc>` and `<narr>`
are required (the assessor reads the last three); any other field is ignored.
"""

from __future__ import annotations

import re

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import TOPIC_ID_LENGTH, check_id
from focal.evaluation.formats.records import Topic

_BLOCK = re.compile(r"<top>(.*?)</top>", re.DOTALL | re.IGNORECASE)
_FIELD = re.compile(r"<(\w+)>([^<]*)", re.DOTALL)
_LABEL = re.compile(r"^\s*(number|description|narrative)\s*:", re.IGNORECASE)
REQUIRED = ("num", "title", "desc", "narr")


def is_trec(text: str) -> bool:
    """True when the file's first tag is `<top>` (an XML topic file starts otherwise)."""
    first = re.search(r"<[^\s>]*", text)
    return first is not None and first.group(0).lower() == "<top"


def read_trec_topics(text: str, name: str) -> list[Topic]:
    """The topics of a TREC-style topic file, in file order (errors name file and line)."""
    topics: list[Topic] = []
    first_line: dict[str, int] = {}
    for block in _BLOCK.finditer(text):
        line = text.count("\n", 0, block.start()) + 1
        fields: dict[str, str] = {}
        for field in _FIELD.finditer(block.group(1)):
            tag = field.group(1).lower()
            if tag not in fields:
                fields[tag] = " ".join(_LABEL.sub("", field.group(2)).split())
        for required in REQUIRED:
            if not fields.get(required):
                raise FormatError(name, line, f"expected a <{required}> in this <top>")
        topic_id = check_id(fields["num"], "topic id", TOPIC_ID_LENGTH, name, line)
        if topic_id in first_line:
            raise FormatError(
                name, line, f"duplicate topic id {topic_id} (first on line {first_line[topic_id]})"
            )
        first_line[topic_id] = line
        topics.append(
            Topic(topic_id, None, fields["title"], "", "", fields["desc"], fields["narr"])
        )
    if not topics:
        raise FormatError(name, None, "expected at least one <top> ... </top> block")
    return topics
