"""INEX 2009/2010 topic files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evaluation.errors import FormatError
from evaluation.formats import read_topics
from evaluation.formats.records import Topic


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
        ("", 2, "expected at least one <topic>"),
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


def test_wrong_root_and_entities_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_text("<topics/>")
    with pytest.raises(FormatError, match="expected <inex-topic-file>"):
        read_topics(path)
    path.write_text(
        '<!DOCTYPE x [<!ENTITY e "boom">]>\n<inex-topic-file><topic id="1"><title>&e;</title>'
        "</topic></inex-topic-file>"
    )
    with pytest.raises(FormatError, match="refused"):
        read_topics(path)
