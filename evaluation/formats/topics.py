"""INEX 2009/2010 topic files, parsed safely into Topic records.

    <inex-topic-file>
      <topic id="2010001" ct_no="314">
        <title>...</title> <castitle>...</castitle> <phrasetitle>...</phrasetitle>
        <description>...</description> <narrative>...</narrative>
      </topic>
    </inex-topic-file>

Required: the `id` attribute, `<title>`, `<description>`, `<narrative>` (what an assessor reads).
Optional: `ct_no` (None when absent), `<castitle>` and `<phrasetitle>` (empty when absent; older
INEX topics have no phrase title). Texts are the element's full text with the surrounding
whitespace stripped and nothing else changed. Unknown elements are ignored. The inline DTD of the
real 2010 file (which redeclares lt/gt/amp) is accepted by `parse_xml`; nothing is loaded.
"""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from evaluation.errors import FormatError
from evaluation.formats.limits import TOPIC_ID_LENGTH, check_id
from evaluation.formats.records import Topic
from evaluation.text.xmlsafe import parse_xml

REQUIRED = ("title", "description", "narrative")
OPTIONAL = ("castitle", "phrasetitle")


def read_topics(path: str | Path) -> list[Topic]:
    """The topics of an INEX topic file, in file order; errors name the file and line."""
    name = str(path)
    root = parse_xml(Path(path), name).getroot()
    if _local(root) != "inex-topic-file":
        raise FormatError(name, _line(root), f"expected <inex-topic-file>, found <{_local(root)}>")
    topics: list[Topic] = []
    first_line: dict[str, int | None] = {}
    for element in root:
        if not isinstance(element.tag, str) or _local(element) != "topic":
            continue
        topic = _topic(element, name)
        if topic.id in first_line:
            raise FormatError(
                name,
                _line(element),
                f"duplicate topic id {topic.id} (first on line {first_line[topic.id]})",
            )
        first_line[topic.id] = _line(element)
        topics.append(topic)
    if not topics:
        raise FormatError(name, _line(root), "expected at least one <topic>")
    return topics


def _topic(element: etree._Element, name: str) -> Topic:
    topic_id = (element.get("id") or "").strip()
    if not topic_id:
        raise FormatError(name, _line(element), 'expected an id="..." attribute on <topic>')
    check_id(topic_id, "topic id", TOPIC_ID_LENGTH, name, _line(element))
    fields: dict[str, str] = {}
    for child in element:
        if isinstance(child.tag, str) and _local(child) not in fields:
            fields[_local(child)] = "".join(map(str, child.itertext())).strip()
    for required in REQUIRED:
        if required not in fields:
            raise FormatError(name, _line(element), f"expected a <{required}> in topic {topic_id}")
    ct_no = element.get("ct_no")
    return Topic(
        id=topic_id,
        ct_no=ct_no.strip() if ct_no is not None else None,
        title=fields["title"],
        castitle=fields.get("castitle", ""),
        phrasetitle=fields.get("phrasetitle", ""),
        description=fields["description"],
        narrative=fields["narrative"],
    )


def _line(element: etree._Element) -> int | None:
    line: object = element.sourceline  # the lxml stubs leave it untyped
    return line if isinstance(line, int) else None


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname
