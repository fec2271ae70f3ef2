"""The text model on the real articles in ../shared/data/collections (eLife JATS, Shakespeare)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from lxml import etree

from focal.evaluation.text.document import Document, load_document
from focal.evaluation.text.xmlsafe import parse_xml


def articles(collections: Path) -> list[Path]:
    found = sorted(collections.glob("*/*.xml"))
    assert len(found) >= 24, f"expected 14 eLife and 10 Shakespeare files in {collections}"
    return found


@pytest.fixture(scope="module")
def documents(shared_collections: Path) -> dict[Path, Document]:
    def refuse(*args: object) -> None:
        raise AssertionError("parsing tried to open a network connection")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", refuse)
        return {path: load_document(path) for path in articles(shared_collections)}


def test_every_jats_article_has_an_unfetched_external_doctype(shared_collections: Path) -> None:
    elife = sorted((shared_collections / "elife").glob("*.xml"))
    assert len(elife) == 14
    for path in elife:
        tree = parse_xml(path)
        assert tree.docinfo.system_url == "JATS-archivearticle1.dtd", path
        assert tree.docinfo.externalDTD is None, path  # the external subset was not loaded
        declared = tree.docinfo.internalDTD
        assert declared is None or not list(declared.iterelements()), path


def test_element_tables_are_consistent(documents: dict[Path, Document]) -> None:
    for path, document in documents.items():
        elements = document.elements
        assert elements[0].parent == -1 and elements[0].depth == 0, path
        assert (elements[0].start, elements[0].end) == (0, len(document.text)), path
        assert len({e.path for e in elements}) == len(elements), f"{path}: duplicate paths"
        last_child_end: dict[int, int] = {}
        for index, element in enumerate(elements[1:], start=1):
            parent = elements[element.parent]
            assert element.parent < index, path  # preorder: parents come first
            assert element.depth == parent.depth + 1, element.path
            assert element.path.startswith(parent.path + "/"), element.path
            assert parent.start <= element.start <= element.end <= parent.end, element.path
            # siblings follow each other without overlapping
            assert element.start >= last_child_end.get(element.parent, parent.start), element.path
            last_child_end[element.parent] = element.end
            assert elements[index - 1].start <= element.start, element.path


def test_span_texts_are_the_xpath_string_values(shared_collections: Path) -> None:
    for path in articles(shared_collections):
        root = parse_xml(path).getroot()
        document = load_document(path)
        assert document.text == root.xpath("string()"), path
        lxml_elements = list(root.iter(etree.Element))
        assert len(lxml_elements) == len(document.elements), path
        for lxml_element, element in zip(lxml_elements, document.elements, strict=True):
            expected = lxml_element.xpath("string()")
            assert document.text[element.start : element.end] == expected, element.path


def test_paths_resolve_with_lxml_xpath(shared_collections: Path) -> None:
    # Shakespeare has no namespaces, so an INEX path is a valid XPath there: lxml finds the same
    # element independently of Focal's table.
    for path in sorted((shared_collections / "shakespeare").glob("*.xml")):
        root = parse_xml(path).getroot()
        document = load_document(path)
        for element in document.elements[:: max(1, len(document.elements) // 200)]:
            (found,) = root.getroottree().xpath(element.path)
            assert document.text[element.start : element.end] == found.xpath("string()")


def test_look_ups_on_real_articles(documents: dict[Path, Document]) -> None:
    for document in documents.values():
        children: dict[int, list[int]] = {}
        for index, element in enumerate(document.elements):
            assert document.index(element.path) == index
            children.setdefault(element.parent, []).append(index)
        step = max(1, len(document.text) // 500)
        for offset in range(0, len(document.text), step):
            innermost = document.innermost(offset)
            assert innermost is not None
            assert innermost.start <= offset < innermost.end
            # no child of the innermost element contains the offset
            for child in children.get(document.index(innermost.path), []):
                element = document.elements[child]
                assert not element.start <= offset < element.end, element.path
