"""Display profiles change how `#document` looks, never its text (spec section 1).

Every shipped profile renders every real document (../shared, skipped with the reason when
absent) and every demo article; the text read back by two HTML parsers must equal the text
model's. Hostile attribute values and hostile profiles cannot add markup, attributes or text.
"""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from focal.assessor.campaign.setup.profiles import (
    DATA_ATTRIBUTES,
    MAX_DATA_VALUE,
    Profile,
    ProfileError,
    Rule,
    detect_profile,
    get_profile,
    load_profile_file,
    parse_profile,
    profile_names,
)
from focal.assessor.web.rendering import render_document, render_events
from focal.evaluation.text.document import Document
from focal.evaluation.text.xmlsafe import parse_xml

from .document_html import DocumentReader, page, read_page

DEMO_COLLECTION = Path(__file__).resolve().parents[3] / "demo" / "collection"
ALLOWED_ATTRIBUTES = {"class", "data-path", "role", "aria-level", "data-fold"} | {
    f"data-{name}" for name in DATA_ATTRIBUTES
}


def read_back(html: str, text: str) -> DocumentReader:
    """Parse the page twice; both parsers must find exactly `text` inside #document."""
    reader = read_page(html)
    assert "".join(reader.pieces) == text
    (container,) = lxml.html.document_fromstring(page(html)).xpath('//div[@id="document"]')
    assert "".join(container.itertext()) == text
    assert reader.tags <= {"div", "span"}
    assert {name for name, _value in reader.attributes} <= ALLOWED_ATTRIBUTES
    return reader


def render_with(source: bytes, profile: Profile) -> tuple[str, Document]:
    root = parse_xml(source).getroot()
    document = Document("d", root)
    return render_events(root, document.elements, profile), document


def test_the_shipped_profiles_are_the_promised_ones() -> None:
    assert set(profile_names()) == {"default", "demo", "jats", "shakespeare", "wikipedia"}
    # the demo profile extends the Wikipedia one: its own rules first, then all of Wikipedia's
    assert get_profile("demo").rules[-len(get_profile("wikipedia").rules) :] == (
        get_profile("wikipedia").rules
    )


@pytest.mark.parametrize("profile", ["default", "demo", "jats", "shakespeare", "wikipedia"])
def test_every_profile_keeps_the_text_of_every_real_document(
    shared_collections: Path, profile: str
) -> None:
    articles = sorted(shared_collections.glob("elife/*.xml"))
    articles += sorted(shared_collections.glob("shakespeare/*.xml"))
    assert len(articles) >= 20
    for article in articles:
        html, document = render_document(article, profile=profile)
        read_back(str(html), document.text)


@pytest.mark.parametrize("profile", ["default", "demo", "jats", "shakespeare", "wikipedia"])
def test_every_profile_keeps_the_text_of_every_demo_article(profile: str) -> None:
    articles = sorted(DEMO_COLLECTION.glob("*.xml"))
    assert articles, f"no demo articles in {DEMO_COLLECTION}"
    for article in articles:
        html, document = render_document(article, profile=profile)
        read_back(str(html), document.text)


def test_the_profiles_present_what_they_promise(shared_collections: Path) -> None:
    html, _document = render_document(shared_collections / "shakespeare" / "hamlet.xml")
    assert "pf-profile-shakespeare" in html and 'data-speaker="Bernardo"' in html
    assert 'class="x-title pf-heading pf-play-title pf-h1"' in html
    html, _document = render_document(shared_collections / "elife" / "elife00240.xml")
    assert "pf-profile-jats" in html and 'class="x-journal-meta pf-folded"' in html
    assert 'class="x-article-title pf-heading pf-article-title pf-h1"' in html
    html, _document = render_document(shared_collections / "elife" / "elife00013.xml")
    assert 'class="x-td pf-cell"' in html and 'class="x-tr pf-row"' in html


def test_the_demo_profile_folds_the_header_and_titles_the_article() -> None:
    html, _document = render_document(DEMO_COLLECTION / "1001.xml", profile="demo")
    assert 'role="heading" aria-level="1">Lighthouse</div>' in html
    assert 'class="x-id pf-metadata" data-path="/article[1]/header[1]/id[1]"' in html
    # a section title one section deep is a level-2 heading
    assert 'class="x-st pf-heading pf-section-title pf-h2"' in html


PLAY = b"""<play><head><title>A Play</title><tag>t</tag></head><text>
<act><scene>
<text type="enter">Ann and Bob</text>
<text char="Ann" type="verse">one</text>
<text char="Ann" type="verse">two</text>
<text type="stage">aside</text>
<text char="Ann" type="verse">three</text>
<text char="Bob" type="verse">four</text>
<text char="Ann" type="verse">five</text>
</scene><scene><text char="Ann" type="verse">six</text></scene></act>
</text></play>"""


def test_the_speaker_is_carried_only_where_it_changes_within_a_scene() -> None:
    html, document = render_document(PLAY, "play")
    assert detect_profile(parse_xml(PLAY).getroot()) == "shakespeare"
    reader = read_back(str(html), document.text)
    speakers = [value for name, value in reader.attributes if name == "data-speaker"]
    # one (Ann), two: same speaker; a stage direction does not break the run; three: still Ann;
    # four: Bob; five: Ann again; six: a new scene starts a new run
    assert speakers == ["Ann", "Bob", "Ann", "Ann"]
    assert 'data-type="stage">aside</div>' in html


@pytest.mark.parametrize(
    ("xml", "expected"),
    [
        (b"<play><head/></play>", "shakespeare"),
        (b"<article><front/><body/></article>", "jats"),
        (b"<article><body><p>x</p></body></article>", "jats"),
        (b"<article><name id='1'>T</name><body/></article>", "wikipedia"),
        (b"<article><header/><bdy/></article>", "wikipedia"),
        (b"<article><bdy/></article>", "wikipedia"),
        (b"<article><p/></article>", "default"),
        (b"<book><p/></book>", "default"),
    ],
)
def test_detection_by_root_element(xml: bytes, expected: str) -> None:
    assert detect_profile(parse_xml(xml).getroot()) == expected


# -- hostile attribute values and hostile profiles ---------------------------------------------

HOSTILE_VALUES = [
    '"><script>alert(1)</script>',
    "' onmouseover='alert(1)",
    "javascript:alert(1)",
    "</div><img src=x onerror=alert(1)>",
    "&amp; &lt; \u2028 \r\n𝄞",
]


def _xml_attribute(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace('"', "&quot;")
        .replace("\r", "&#13;")
        .replace("\n", "&#10;")
    )


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_a_hostile_speaker_name_is_an_escaped_attribute_value(value: str) -> None:
    source = (
        f'<play><text><act><scene><text char="{_xml_attribute(value)}" onclick="alert(1)" '
        f'style="color:red" href="javascript:alert(1)">line</text></scene></act></text></play>'
    ).encode()
    html, document = render_document(source, "d", profile="shakespeare")
    assert "<script" not in html and "<img" not in html
    assert "onclick" not in html and "style=" not in html and "href" not in html
    reader = read_back(str(html), document.text)
    assert ("data-speaker", value) in reader.attributes


def test_a_profile_cannot_ask_for_other_attributes_or_markup_in_its_classes() -> None:
    for data in ({"onclick": "char"}, {"href": "char"}, {"style": "char"}):
        with pytest.raises(ValueError, match="not carried"):
            parse_profile({"name": "bad", "rules": [{"tag": "p", "data": data}]}, "bad.toml")
    with pytest.raises(ValueError, match="class"):
        parse_profile(
            {"name": "bad", "rules": [{"tag": "p", "class": 'x" onclick="alert(1)'}]}, "bad.toml"
        )
    with pytest.raises(ValueError, match="display"):
        parse_profile({"name": "bad", "rules": [{"tag": "p", "display": "script"}]}, "bad.toml")
    with pytest.raises(ValueError, match=r"bad\.toml: rule 1: unknown key"):
        parse_profile({"name": "bad", "rules": [{"tag": "p", "html": "<b>"}]}, "bad.toml")


def test_a_rule_built_in_code_still_carries_only_allow_listed_attributes() -> None:
    """Defence in depth: the renderer checks the allow-list and sanitises classes itself."""
    rule = Rule(
        tag="p",
        css_class='x" onclick="alert(1)',
        data=(("onclick", "a"), ("speaker", "a")),
        label='"><script>',
        display="folded",
    )
    html, document = render_with(
        b'<r><p a="&quot;&gt;&lt;b&gt;">t</p></r>', Profile("hostile", "", (rule,))
    )
    assert "onclick=" not in html and "<script" not in html and "<b>" not in html
    reader = read_back(html, document.text)
    assert ("class", "x-p pf-folded pf-x-onclick-alert-1-") in reader.attributes
    assert ("data-speaker", '"><b>') in reader.attributes
    assert ("data-fold", '"><script>') in reader.attributes


ATTRIBUTE_TEXT = st.text(
    alphabet=st.sampled_from(list("ab <>&\"'=/:\\`\t\n\r\u00a0é𝄞😀javscript()")), max_size=300
)


@settings(max_examples=100, deadline=None)
@given(speaker=ATTRIBUTE_TEXT, kind=ATTRIBUTE_TEXT, name=ATTRIBUTE_TEXT, text=ATTRIBUTE_TEXT)
def test_any_attribute_value_ends_up_escaped_and_whole(
    speaker: str, kind: str, name: str, text: str
) -> None:
    body = _xml_attribute(text).replace("'", "&apos;")
    source = (
        f'<play><text><act><scene name="{_xml_attribute(name)}">'
        f'<text char="{_xml_attribute(speaker)}" type="{_xml_attribute(kind)}">{body}</text>'
        "</scene></act></text></play>"
    ).encode()
    html, document = render_document(source, "d", profile="shakespeare")
    reader = read_back(str(html), document.text)
    carried = dict(reader.attributes)
    # XML normalises whitespace in attribute values (tab, CR, LF written as characters)
    root = parse_xml(source).getroot()
    expected = root.find(".//scene/text")
    assert expected is not None
    assert carried["data-speaker"] == (expected.get("char") or "")[:MAX_DATA_VALUE]
    assert carried["data-type"] == (expected.get("type") or "")[:MAX_DATA_VALUE]


def test_a_bad_profile_file_is_one_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[[rules]]\ntag = "p"\ndisplay = "marquee"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.toml: rule 1: display = 'marquee': expected"):
        load_profile_file(bad)
    bad.write_text('name = "x"\nextends = "nope"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.toml: extends = 'nope': no such profile"):
        load_profile_file(bad)
    bad.write_text("name = \n", encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.toml: "):
        load_profile_file(bad)
    bad.write_text('name = "Bad Name"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"bad\.toml: name = 'Bad Name'"):
        load_profile_file(bad)
