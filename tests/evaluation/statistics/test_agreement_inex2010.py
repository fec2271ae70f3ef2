"""Agreement on the real INEX 2010 qrels (../shared/data): with itself, and with a second
"assessor" who highlighted only the first half of every passage."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from focal.evaluation.formats.fol.qrels import read_qrels
from focal.evaluation.formats.records import Qrels
from focal.evaluation.statistics.agreement.table import agreement_table


def halved(qrels: Qrels) -> Qrels:
    """Every passage cut to its first half (at least one character)."""
    out: Qrels = {}
    for topic, lines in qrels.items():
        out[topic] = {}
        for article, line in lines.items():
            passages = tuple((s, s + max(1, (e - s) // 2)) for s, e in line.passages)
            rel = sum(e - s for s, e in passages)
            out[topic][article] = replace(line, passages=passages, rel_chars=rel)
    return out


def test_the_inex2010_qrels_agree_with_themselves_and_with_halves(inex2010: Path) -> None:
    qrels = read_qrels(inex2010 / "inex2010.qrels")
    same = agreement_table(qrels, qrels)
    assert len(same.rows) == 52
    relevant = sum(1 for lines in qrels.values() for line in lines.values() if line.relevant)
    characters = sum(line.rel_chars for lines in qrels.values() for line in lines.values())
    assert (same.total.docs_both, same.total.chars_both) == (relevant, characters)
    assert same.total.both_over_union == same.total.docs_agreement == 1.0
    half = halved(qrels)
    table = agreement_table(qrels, half)
    halves = sum(line.rel_chars for lines in half.values() for line in lines.values())
    # every halved passage lies inside its original: ∩ = the halves, ∩/J2 = 1 in every topic
    assert (table.total.chars_a, table.total.chars_b, table.total.chars_both) == (
        characters,
        halves,
        halves,
    )
    assert all(row.both_over_b == 1.0 for row in table.rows)
    for row in table.rows:
        assert row.both_over_union == pytest.approx(row.chars_b / row.chars_a, abs=1e-15)
    assert table.total.kappa == 1.0  # the same articles are relevant
    # α_U: the same passages agree fully; halves (ends moved, units inside the other's units)
    # agree less, yet far above chance in every topic
    assert same.total.alpha_u == 1.0 and {row.alpha_u for row in same.rows} == {1.0}
    assert table.total.alpha_u is not None and 0.5 < table.total.alpha_u < 1
    assert all(row.alpha_u is not None and 0 < row.alpha_u < 1 for row in table.rows)
    # character F1 = 2∩/(J1 + J2) with ∩ = J2 = the halves
    assert table.rows[0].char_f1 == pytest.approx(
        2 * table.rows[0].chars_b / (table.rows[0].chars_a + table.rows[0].chars_b)
    )
