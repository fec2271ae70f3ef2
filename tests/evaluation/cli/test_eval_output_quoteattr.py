"""The report's own attribute quoting writes exactly what the standard library writes."""

from __future__ import annotations

import doctest
from xml.sax.saxutils import quoteattr as standard_quoteattr

from hypothesis import given
from hypothesis import strategies as st

from focal.evaluation.cli.eval import output as report


@given(st.text(alphabet=st.sampled_from("ab\"'&<>\n\r\t é𝄞"), max_size=30))
def test_quoteattr_equals_the_standard_library(value: str) -> None:
    assert report.quoteattr(value) == standard_quoteattr(value)


def test_report_doctests() -> None:
    failures, tried = doctest.testmod(report)
    assert tried > 0 and failures == 0
