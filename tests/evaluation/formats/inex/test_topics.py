"""Topic files: INEX 2009/2010, any root holding <topic>, INEX 2002-2008 single-topic files
(one or a folder), TREC-style <top> blocks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats import read_topics
from focal.evaluation.formats.records import Topic


def test_real_inex2010_topics(inex2010: Path) -> None:
    path = inex2010 / "2010-topics.xml"
    topics = read_topics(path)
    raw = path.read_text()
    ids = re.findall(r'<topic id="(\d+)" ct_no="(\d+)">', raw)
    assert len(topics) == 107
    assert [(t.id, t.ct_no) for t in topics] == ids
    assert topics[0].title == "landslide malaysia"
    assert topics[0].castitle == "//*[about(., landslide malaysia)]"
    # the inline DTD redeclares amp as "ampersand"; the predefined meaning must win
    drum = [t for t in topics if "Drum" in t.phrasetitle]
    assert len(drum) == 1
    assert '"Drum & bass"' in drum[0].phrasetitle
    assert all(t.title and t.description and t.narrative for t in topics)


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "topics.xml"
    path.write_text(f'<?xml version="1.0"?>\n<inex-topic-file>\n{body}</inex-topic-file>\n')
    return path


def test_optional_parts_and_whitespace(tmp_path: Path) -> None:
    body = (
        '<topic id=" 9 ">\n'
        "  <title>\n  a  b </title><description>d</description>\n"
        "  <narrative>n <em>x</em> y</narrative><extra/>\n"
        "</topic>\n"
    )
    [topic] = read_topics(write(tmp_path, body))
    assert topic == Topic("9", None, "a  b", "", "", "d", "n x y")


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        ("<topic><title>t</title></topic>\n", 3, 'expected an id="..."'),
        (
            '<topic id="1">\n<title>t</title><narrative>n</narrative></topic>\n',
            3,
            "expected a <description> in topic 1",
        ),
        (
            '<topic id="1"><title>t</title><description>d</description><narrative>n'
            '</narrative></topic>\n<topic id="1"><title>t</title><description>d'
            "</description><narrative>n</narrative></topic>\n",
            4,
            "duplicate topic id 1 (first on line 3)",
        ),
        ("", 2, "expected <topic> elements, an <inex_topic> or <top> blocks"),
        ("<topic id='1'><title>t</topic>\n", 3, "not well-formed"),
    ],
)
def test_malformed_topics(tmp_path: Path, body: str, line: int, expected: str) -> None:
    path = write(tmp_path, body)
    with pytest.raises(FormatError) as caught:
        read_topics(path)
    assert caught.value.file == str(path)
    assert caught.value.line == line
    assert expected in caught.value.message


def test_a_root_without_topics_and_entities_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_text("<topics/>")
    with pytest.raises(FormatError, match="found <topics>"):
        read_topics(path)
    path.write_text(
        '<!DOCTYPE x [<!ENTITY e "boom">]>\n<inex-topic-file><topic id="1"><title>&e;</title>'
        "</topic></inex-topic-file>"
    )
    with pytest.raises(FormatError, match="refused"):
        read_topics(path)


TOPIC_BODY = "<title>t {n}</title><description>d {n}</description><narrative>n {n}</narrative>"


def test_any_root_holding_topics_is_read(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.xml"
    path.write_text(
        "<topics><group>"
        + "".join(f'<topic id="{n}">{TOPIC_BODY.format(n=n)}</topic>' for n in (5, 6))
        + "</group></topics>"
    )
    assert [(t.id, t.title, t.narrative) for t in read_topics(path)] == [
        ("5", "t 5", "n 5"),
        ("6", "t 6", "n 6"),
    ]


def _inex_topic(n: int) -> str:
    # The shape of INEX 2002-2008 topics: topic_id and query_type attributes, a <title> with
    # inline markup, <keywords> (ignored).
    return (
        f'<?xml version="1.0"?>\n<inex_topic topic_id="{n}" query_type="CO" ct_no="{n + 100}">'
        f"<title><cw>t</cw> {n}</title><description>d {n}</description>"
        f"<narrative>n {n}</narrative><keywords>k</keywords></inex_topic>\n"
    )


def test_a_single_inex_topic_file_and_a_folder_of_them(tmp_path: Path) -> None:
    one = tmp_path / "289.xml"
    one.write_text(_inex_topic(289))
    (topic,) = read_topics(one)
    assert (topic.id, topic.ct_no, topic.title, topic.description) == (
        "289",
        "389",
        "t 289",
        "d 289",
    )
    folder = tmp_path / "topics"
    folder.mkdir()
    for n in (291, 290):
        (folder / f"{n}.xml").write_text(_inex_topic(n))
    assert [t.id for t in read_topics(folder)] == ["290", "291"]  # file name order
    (folder / "copy.xml").write_text(_inex_topic(290))
    with pytest.raises(FormatError, match="duplicate topic id 290"):
        read_topics(folder)


TREC = """<top>
<num> Number: 301
<title> international organized crime

<desc> Description:
Identify organizations that participate in
international criminal activity.

<narr> Narrative:
A relevant document must name an organization.
</top>

<top>
<num> Number: 302 <title> poliomyelitis
<desc> Description: Is the disease under control?
<narr> Narrative: Any report of cases.
</top>
"""


def test_trec_topic_files(tmp_path: Path) -> None:
    path = tmp_path / "topics.301-302"
    path.write_text(TREC)
    first, second = read_topics(path)
    assert (first.id, first.title, first.ct_no) == ("301", "international organized crime", None)
    assert first.description == (
        "Identify organizations that participate in international criminal activity."
    )
    assert first.narrative == "A relevant document must name an organization."
    assert (second.id, second.title, second.narrative) == (
        "302",
        "poliomyelitis",
        "Any report of cases.",
    )
    path.write_text(TREC.replace("<narr> Narrative: Any report of cases.\n", ""))
    with pytest.raises(FormatError) as caught:
        read_topics(path)
    assert (caught.value.line, caught.value.message) == (13, "expected a <narr> in this <top>")
