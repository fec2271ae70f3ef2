"""Each collection format read into Focal's text model: exact texts and elements, on our own
material (tests/evaluation/formats/collections/material.py), and errors that name the line."""

from __future__ import annotations

import gzip
import socket
import threading
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.collections.detect import (
    detect_format,
    find_document,
    read_collection,
)
from focal.evaluation.formats.collections.documents import body_start
from focal.evaluation.formats.collections.jsonl import Fields, read_jsonl

from . import material


def texts(path: Path, **options: object) -> dict[str, str]:
    found = read_collection(path, **options)  # type: ignore[arg-type]
    return {record.id: record.document().text for record in found}


@pytest.mark.parametrize("name", ["jsonl", "tsv", "trec", "html", "text"])
def test_every_format_gives_the_texts_of_its_mapping(tmp_path: Path, name: str) -> None:
    path, expected = material.write_all(tmp_path)[name]
    assert detect_format(path) == name
    assert texts(path) == expected


def test_jsonl_elements_are_title_body_and_paragraphs(tmp_path: Path) -> None:
    path = material.write_jsonl(tmp_path / "lamps.jsonl")
    document = find_document(path, "lamp-1").document()
    assert [(e.path, e.start, e.end) for e in document.elements] == material.LAMP_1_ELEMENTS
    # the record's own text field starts at the body: what segment offsets count from
    record_text = material.JSONL_RECORDS[0]["text"]
    assert document.text[body_start(document) :] == record_text
    untitled = find_document(path, "lamp-2").document()
    assert body_start(untitled) == 0


def test_gzip_is_read_as_is_and_fields_can_be_named(tmp_path: Path) -> None:
    records: list[dict[str, object]] = [{"pid": 7, "head": "H", "passage": "P 𝔸"}]
    path = material.write_jsonl(tmp_path / "passages.jsonl.gz", records)
    assert gzip.decompress(path.read_bytes())  # really compressed
    fields = Fields.parse("pid", "head", "passage")
    assert {r.id: r.document().text for r in read_jsonl(path, fields)} == {"7": "H\n\nP 𝔸"}
    with pytest.raises(FormatError, match=r"passages.jsonl.gz:1: expected an id field"):
        list(read_jsonl(path))


def test_characters_xml_cannot_hold_become_one_replacement_each(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"id": "c", "text": "a\\u0000b\\ud800c"}\n', encoding="utf-8")  # JSON escapes
    assert texts(path) == {"c": "a\ufffdb\ufffdc"}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '{"id": "a", "text": "x"}\n{"id": "b", "text": \n',
            r"bad.jsonl:2: expected a JSON object",
        ),
        ('{"id": "a", "text": "x"}\n[1, 2]\n', r"bad.jsonl:2: expected a JSON object"),
        ('{"id": "a"}\n', r"bad.jsonl:1: expected a text field"),
        ('{"id": "a b", "text": "x"}\n', r"bad.jsonl:1: expected a document id without spaces"),
        ('{"id": "a", "text": "x", "title": 3}\n', r"bad.jsonl:1: expected the title as a string"),
    ],
)
def test_a_malformed_jsonl_record_names_the_line(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        list(read_collection(path))


def test_tsv_and_sgml_errors_name_the_line(tmp_path: Path) -> None:
    tsv = tmp_path / "bad.tsv"
    tsv.write_bytes(b"a\tone\r\nb\ttwo\tthree\r\n")
    with pytest.raises(FormatError, match=r"bad.tsv:2: expected 2 tab-separated fields"):
        list(read_collection(tsv))
    sgml = tmp_path / "bad.sgml"
    sgml.write_bytes(b"<DOC><DOCNO>x</DOCNO></DOC>\n<DOC>\n<TEXT>no number</TEXT>\n</DOC>\n")
    with pytest.raises(FormatError, match=r"bad.sgml:2: expected <DOCNO>"):
        list(read_collection(sgml))
    sgml.write_bytes(b"<DOC><DOCNO>x</DOCNO>\n<TEXT>never closed\n")
    with pytest.raises(FormatError, match=r"bad.sgml:1: this <DOC> has no </DOC>"):
        list(read_collection(sgml))
    latin = tmp_path / "latin.sgml"
    latin.write_bytes(b"<DOC><DOCNO>x</DOCNO>\n<TEXT>caf\xe9</TEXT></DOC>\n")
    with pytest.raises(FormatError, match=r"latin.sgml:2: expected UTF-8 text, found byte 0xe9"):
        list(read_collection(latin))


def test_html_elements_and_dropped_content(tmp_path: Path) -> None:
    folder = material.write_pages(tmp_path / "pages")
    document = find_document(folder, None).document()
    tags = [e.tag for e in document.elements]
    assert tags == ["doc", "title", "body", "h1", "p"]
    heading = document.element("/doc[1]/body[1]/h1[1]")
    assert document.text[heading.start : heading.end] == f"Roses {material.ASTRAL}"
    assert "hidden" not in document.text and "ignored" not in document.text


def test_html_never_touches_the_network(tmp_path: Path) -> None:
    touched = threading.Event()
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        server.settimeout(0.2)
        port = server.getsockname()[1]
        page = tmp_path / "remote.html"
        page.write_text(
            f'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "http://127.0.0.1:{port}/x.dtd">'
            f'<html><head><link rel="stylesheet" href="http://127.0.0.1:{port}/s.css"></head>'
            f'<body><p>Safe <img src="http://127.0.0.1:{port}/i.png"></p></body></html>',
            encoding="utf-8",
        )
        assert texts(page, format="html") == {"remote": "Safe "}
        try:
            server.accept()
            touched.set()
        except TimeoutError:
            pass
    assert not touched.is_set()


def test_format_from_content_and_a_clear_refusal(tmp_path: Path) -> None:
    sgml = tmp_path / "news"
    sgml.write_bytes(material.SGML.encode("utf-8"))
    assert detect_format(sgml) == "trec"
    unknown = tmp_path / "mystery.dat"
    unknown.write_text("plain words\n", encoding="utf-8")
    with pytest.raises(FormatError, match="say it with --format"):
        detect_format(unknown)
    with pytest.raises(FormatError, match="holds several documents: name one with --id"):
        find_document(material.write_tsv(tmp_path / "r.tsv"), None)
