"""INEX topic files, parsed safely into Topic records.

Accepted: any XML root holding `<topic id=...>` elements (the INEX 2009/2010
`<inex-topic-file>` below, or another wrapper), the single-topic files of INEX 2002-2008
(`<inex_topic topic_id="...">` as root; a folder of them is read file by file, in name
order), and TREC-style `<top><num>...` files (`focal.evaluation.formats.inex.trec_topics`).

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

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.bounds import TOPIC_ID_LENGTH, check_id
from focal.evaluation.formats.inex.trec_topics import is_trec, read_trec_topics
from focal.evaluation.formats.records import Topic
from focal.evaluation.text.xmlsafe import parse_xml, read_regular_file

REQUIRED = ("title", "description", "narrative")
OPTIONAL = ("castitle", "phrasetitle")


def read_topics(path: str | Path) -> list[Topic]:
    """The topics of a topic file (or a folder of single-topic files), in file order; errors
    name the file and line."""
    source = Path(path)
    if source.is_dir():
        return _read_folder(source)
    name = str(path)
    data = read_regular_file(source, name)
    text = data.decode("utf-8", "replace")
    if is_trec(text):
        if "\ufffd" in text:
            raise FormatError(name, None, "expected UTF-8 text (found an invalid byte)")
        return read_trec_topics(text, name)
    root = parse_xml(data, name).getroot()
    if _local(root) == "inex_topic":
        return [_topic(root, name)]
    elements = [
        element
        for element in root.iter()
        if isinstance(element.tag, str) and _local(element) == "topic"
    ]
    topics: list[Topic] = []
    first_line: dict[str, int | None] = {}
    for element in elements:
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
        raise FormatError(
            name,
            _line(root),
            f"expected <topic> elements, an <inex_topic> or <top> blocks, found <{_local(root)}>",
        )
    return topics


def _read_folder(folder: Path) -> list[Topic]:
    """Every `*.xml` topic file of `folder` (INEX 2002-2008 ship one file per topic)."""
    files = sorted(folder.glob("*.xml"))
    if not files:
        raise FormatError(folder, None, "contains no *.xml topic files")
    topics: list[Topic] = []
    seen: dict[str, Path] = {}
    for file in files:
        for topic in read_topics(file):
            if topic.id in seen:
                raise FormatError(
                    file, None, f"duplicate topic id {topic.id} (also in {seen[topic.id].name})"
                )
            seen[topic.id] = file
            topics.append(topic)
    return topics


def _topic(element: etree._Element, name: str) -> Topic:
    topic_id = (element.get("id") or element.get("topic_id") or "").strip()
    if not topic_id:
        raise FormatError(
            name, _line(element), f'expected an id="..." attribute on <{_local(element)}>'
        )
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
