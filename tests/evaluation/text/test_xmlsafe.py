"""Safe parsing (spec section 1): no network, no DTD, no entity expansion beyond the predefined."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from focal.evaluation.errors import FormatError
from focal.evaluation.text.document import Document, DocumentError
from focal.evaluation.text.xmlsafe import parse_xml

JATS_DOCTYPE = (
    b'<!DOCTYPE article PUBLIC "-//NLM//DTD JATS (Z39.96) Journal Archiving and Interchange DTD '
    b'v1.1d1 20130915//EN"  "JATS-archivearticle1.dtd">'
)


def refusal(data: bytes, name: str = "doc.xml") -> DocumentError:
    with pytest.raises(DocumentError) as caught:
        parse_xml(data, name=name)
    return caught.value


# -- what must be accepted ---------------------------------------------------------------------


def test_document_error_is_a_format_error_with_file_and_line() -> None:
    error = refusal(b"<a>\n<b>\n</a>", name="broken.xml")
    assert isinstance(error, FormatError)
    assert error.file == "broken.xml"
    assert error.line == 3  # the mismatched </a> is on the third line
    assert str(error).startswith("broken.xml:3: ")


def test_external_doctype_is_accepted_and_not_loaded() -> None:
    tree = parse_xml(b'<?xml version="1.0"?>' + JATS_DOCTYPE + b"<article><p>x</p></article>")
    assert tree.docinfo.system_url == "JATS-archivearticle1.dtd"
    assert tree.getroot().xpath("string()") == "x"


def test_external_doctype_over_http_is_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    # A listening socket records any connection attempt in its backlog, even unaccepted.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    port = listener.getsockname()[1]

    def no_connections(*args: object) -> None:
        raise AssertionError("the parser tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_connections)
    try:
        data = (
            f'<!DOCTYPE article PUBLIC "-//X//DTD Y//EN" "http://127.0.0.1:{port}/jats.dtd">'
            f'<article><p>&lt;x&gt;</p><q xmlns:xlink="http://www.w3.org/1999/xlink"/></article>'
        ).encode()
        tree = parse_xml(data, name="net.xml")
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nothing connected
    finally:
        listener.close()
    assert tree.getroot().xpath("string()") == "<x>"


def test_local_dtd_file_is_not_loaded(tmp_path: Path) -> None:
    dtd = tmp_path / "local.dtd"
    dtd.write_text('<!ATTLIST a b CDATA "default"><!ENTITY e "expanded">', encoding="utf-8")
    root = parse_xml(f'<!DOCTYPE a SYSTEM "{dtd.as_uri()}"><a>x</a>'.encode()).getroot()
    assert root.get("b") is None  # a loaded DTD would have added the default attribute
    error = refusal(f'<!DOCTYPE a SYSTEM "{dtd.as_uri()}">\n<a>&e;</a>'.encode())
    assert error.line == 2
    assert "&e;" in error.message


def test_predefined_entities_and_character_references() -> None:
    data = b"<a>&lt;&gt;&amp;&apos;&quot; &#65;&#x42;&#x1D49C;&#13;</a>"
    assert parse_xml(data).getroot().xpath("string()") == "<>&'\" AB\U0001d49c\r"


def test_valid_redeclaration_of_a_predefined_entity_is_accepted() -> None:
    data = b'<!DOCTYPE a [<!ENTITY lt "&#38;#60;">]><a>&lt;</a>'
    assert parse_xml(data).getroot().text == "<"


def test_invalid_redeclaration_keeps_the_predefined_meaning() -> None:
    # The INEX 2010 topic file declares lt, gt and amp as words; XML says they stay predefined.
    data = b'<!DOCTYPE t [<!ENTITY lt "lessthan"><!ENTITY amp "ampersand">]><t>a &amp; b &lt;</t>'
    assert parse_xml(data).getroot().text == "a & b <"


def test_inex2010_topics_parse_with_predefined_meanings(inex2010: Path) -> None:
    path = inex2010 / "2010-topics.xml"
    raw = path.read_bytes()
    body = raw[raw.index(b"]>") :]  # after the internal subset
    assert b"<![CDATA[" not in body and b"&#" not in body
    root = parse_xml(path).getroot()
    assert len(root.findall("topic")) == body.count(b"<topic ")
    text = root.xpath("string()")
    assert text.count("&") == body.count(b"&amp;")
    assert "ampersand" not in text or b"ampersand" in body


def test_xinclude_is_not_processed() -> None:
    data = (
        b'<a xmlns:xi="http://www.w3.org/2001/XInclude">'
        b'<xi:include href="/etc/hostname" parse="text"/></a>'
    )
    document = Document.from_bytes(data, "xi")
    assert document.text == ""
    assert [e.path for e in document.elements] == ["/a[1]", "/a[1]/xi:include[1]"]


def test_a_path_given_as_str_is_read_as_a_file(tmp_path: Path) -> None:
    path = tmp_path / "d.xml"
    path.write_bytes(b"<d>text</d>")
    assert parse_xml(str(path)).getroot().text == "text"
    assert parse_xml(path).getroot().text == "text"


# -- what must be refused ----------------------------------------------------------------------


def billion_laughs(levels: int) -> bytes:
    declarations = ['<!ENTITY lol0 "lol">'] + [
        f'<!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">' for i in range(1, levels)
    ]
    return (
        "<!DOCTYPE lolz [\n" + "\n".join(declarations) + f"\n]>\n<lolz>&lol{levels - 1};</lolz>"
    ).encode()


@pytest.mark.parametrize("levels", [2, 10])
def test_billion_laughs_is_refused(levels: int) -> None:
    error = refusal(billion_laughs(levels), name="lolz.xml")
    # Small ones reach Focal's declaration check; big ones are stopped earlier by libxml2's
    # entity amplification limit. Either way: refused, with the file and a line.
    assert error.file == "lolz.xml"
    assert error.line is not None
    assert "entity" in error.message.lower()


def test_billion_laughs_in_an_attribute_is_refused() -> None:
    data = billion_laughs(10).replace(b"<lolz>&lol9;</lolz>", b'<lolz a="&lol9;">x</lolz>')
    refusal(data)


def test_undefined_entity_is_refused_with_its_line() -> None:
    error = refusal(b"<a>\n<b>&nbsp;</b></a>", name="u.xml")
    assert (error.file, error.line) == ("u.xml", 2)
    assert "&nbsp;" in error.message


def test_undefined_entity_under_an_external_doctype_is_refused() -> None:
    # libxml2 only warns here (the entity could be in the DTD it did not load); Focal refuses.
    error = refusal(JATS_DOCTYPE + b"\n<article>\n\n<p>&mdash;</p></article>")
    assert error.line == 4
    assert "&mdash;" in error.message


def test_undefined_entity_in_an_attribute_is_refused() -> None:
    error = refusal(JATS_DOCTYPE + b'\n<article title="&mdash;">x</article>')
    assert "&mdash;" in error.message


@pytest.mark.parametrize(
    "declaration",
    [
        b'<!ENTITY e "harmless">',
        b'<!ENTITY e SYSTEM "file:///etc/passwd">',
        b"<!ENTITY % p \"<!ENTITY e 'E'>\"> %p;",
    ],
    ids=["internal", "external", "parameter"],
)
def test_entity_declarations_are_refused(declaration: bytes) -> None:
    error = refusal(b"<!DOCTYPE a [\n" + declaration + b"\n]>\n<a>&e;</a>")
    assert error.line == 2
    assert "refused" in error.message


def test_malformed_file_error_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    path.write_bytes(b"<?xml version='1.0'?>\n<a>\n  <b>text</c>\n</a>\n")
    with pytest.raises(DocumentError) as caught:
        Document.from_file(path)
    assert caught.value.file == str(path)
    assert caught.value.line == 3
    assert str(caught.value).startswith(f"{path}:3: not well-formed XML")


def test_missing_file_is_a_document_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError) as caught:
        parse_xml(tmp_path / "absent.xml")
    assert caught.value.file.endswith("absent.xml")


def test_empty_input_is_refused() -> None:
    refusal(b"")
