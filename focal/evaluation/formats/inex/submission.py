"""INEX XML submissions (the format participants uploaded in 2007-2010), read into a Run.

    <inex-submission participant-id="12" run-id="MyRun" task="RelevantInContext"
                     query="automatic" result-type="fol">
      <description>...</description>           (ignored, as are other unknown elements)
      <topic topic-id="2010003">
        <result>
          <file>19243417</file>
          <fol offset="0" length="1916"/>      (one or more; or <path>/article[1]/sec[2]</path>)
          <rank>1</rank> <rsv>14.47</rsv>      (both optional)
        </result>
      </topic>
    </inex-submission>

Each `<fol>` or `<path>` of a result becomes one Result (a Relevant in Context result lists the
passages of its article); a result with only `<file>` is an article result. `result-type`
(`fol` or `element`; absent: taken from the contents) fixes the kind, and every result must
agree with it. A missing `<rank>` is the result's position in its topic; a missing `<rsv>` is 0.
Offsets `X` or `-1` mark a missing result, as in text runs. XPointer passages
(`<passage start= end=>`, INEX 2008) are refused: convert them to FOL first.
"""

from __future__ import annotations

from lxml import etree

from focal.evaluation.errors import FormatError
from focal.evaluation.formats.records import Result, Run, RunKind, group_results
from focal.evaluation.text.xmlsafe import parse_xml

RESULT_TYPES: dict[str, RunKind] = {"fol": "fol", "element": "element", "article": "article"}


def parse_submission(data: bytes, name: str) -> Run:
    """Parse the bytes of an INEX XML submission; errors name the file and line."""
    root = parse_xml(data, name).getroot()
    if _local(root) != "inex-submission":
        raise FormatError(name, _line(root), f"expected <inex-submission>, found <{_local(root)}>")
    run_id = _attribute(root, "run-id", name)
    declared = root.get("result-type")
    kind: RunKind | None = None
    if declared is not None:
        kind = RESULT_TYPES.get(declared.strip().lower())
        if kind is None:
            raise FormatError(
                name,
                _line(root),
                f'expected result-type "fol" or "element", found "{declared}"'
                + (
                    " (XPointer passages: convert them to FOL first)"
                    if declared == "passage"
                    else ""
                ),
            )
    results: list[Result] = []
    for topic_element in root:
        if not isinstance(topic_element.tag, str) or _local(topic_element) != "topic":
            continue
        topic = _attribute(topic_element, "topic-id", name)
        position = 0
        for result_element in topic_element:
            if not isinstance(result_element.tag, str) or _local(result_element) != "result":
                continue
            position += 1
            found, kind = _results_of(result_element, topic, position, kind, name)
            results.extend(found)
    if not results:
        raise FormatError(name, _line(root), "expected at least one <topic> with a <result>")
    run = Run(run_id=run_id, file=name, kind=kind or "article")
    group_results(run, results)
    return run


def _results_of(
    element: etree._Element, topic: str, position: int, kind: RunKind | None, name: str
) -> tuple[list[Result], RunKind | None]:
    children = {_local(child): child for child in element if isinstance(child.tag, str)}
    file_element = children.get("file")
    article = (file_element.text or "").strip() if file_element is not None else ""
    if not article:
        raise FormatError(name, _line(element), "expected <file>article id</file> in <result>")
    rank = position
    rank_element = children.get("rank")
    if rank_element is not None:
        rank = int(_number(rank_element, "an integer <rank>", name, integer=True))
    rsv_element = children.get("rsv")
    score = 0.0 if rsv_element is None else _number(rsv_element, "a numeric <rsv>", name)
    targets = [
        child
        for child in element
        if isinstance(child.tag, str) and _local(child) in ("fol", "path", "passage")
    ]
    if not targets:
        kind = _agree(kind, "article", element, name)
        return [Result(topic, article, rank, score, _line(element))], kind
    found: list[Result] = []
    for target in targets:
        line = _line(target)
        what = _local(target)
        if what == "passage":
            raise FormatError(
                name, line, "XPointer <passage> results are not supported: convert them to FOL"
            )
        if what == "path":
            kind = _agree(kind, "element", target, name)
            path = (target.text or "").strip()
            if not path.startswith("/"):
                raise FormatError(
                    name, line, f"expected an element path like /article[1], found {path!r}"
                )
            found.append(Result(topic, article, rank, score, line, path=path))
            continue
        kind = _agree(kind, "fol", target, name)
        offset = _attribute(target, "offset", name)
        length = _count(_attribute(target, "length", name), "length", target, name)
        if offset.strip() in ("X", "x", "-1"):
            found.append(Result(topic, article, rank, score, line, None, length, missing=True))
        else:
            start = _count(offset, "offset (or X or -1)", target, name)
            found.append(Result(topic, article, rank, score, line, start, length))
    return found, kind


def _agree(kind: RunKind | None, found: RunKind, element: etree._Element, name: str) -> RunKind:
    if kind is not None and kind != found:
        raise FormatError(
            name,
            _line(element),
            f"expected only {kind} results, found a result of kind {found}",
        )
    return found


def _attribute(element: etree._Element, attribute: str, name: str) -> str:
    value = element.get(attribute)
    if value is None or not value.strip():
        raise FormatError(
            name, _line(element), f'expected attribute {attribute}="..." on <{_local(element)}>'
        )
    return value.strip()


def _count(text: str, what: str, element: etree._Element, name: str) -> int:
    token = text.strip()
    if not (token.isascii() and token.isdigit()):
        raise FormatError(
            name, _line(element), f"expected a non-negative integer {what}, found {text!r}"
        )
    return int(token)


def _number(element: etree._Element, expected: str, name: str, integer: bool = False) -> float:
    text = (element.text or "").strip()
    try:
        return int(text) if integer else float(text)
    except ValueError:
        raise FormatError(name, _line(element), f"expected {expected}, found {text!r}") from None


def _line(element: etree._Element) -> int:
    """The element's line in the file (the lxml stubs leave `sourceline` untyped)."""
    line: object = element.sourceline
    return line if isinstance(line, int) else 0


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname
