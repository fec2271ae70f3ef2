"""Mathet et al.'s γ through the optional `pygamma-agreement` (`make test` installs the extra).

γ has no closed form (its expected disagreement comes from random continua), so the checks are
the values that hold whatever the samples: identical passages give exactly 1, a side without
passages gives no γ, the seeded samples give the same value twice, and closer passages agree
more than distant ones. Without the package the measure says in one line how to install it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.evaluation.statistics.agreement import gamma as gamma_measure
from focal.evaluation.statistics.agreement.unitizing import UnitizedArticle

pytest.importorskip("pygamma_agreement", reason="the optional extra focal[gamma] is not installed")

BOOK = UnitizedArticle(300, (((75, 145), (220, 250)), ((70, 150), (205, 225), (250, 270))))


def test_identical_passages_give_one() -> None:
    same = ((10, 50), (120, 180))
    assert gamma_measure.gamma([UnitizedArticle(300, (same, same))]) == pytest.approx(1.0)


def test_a_side_without_passages_gives_none() -> None:
    assert gamma_measure.gamma([UnitizedArticle(300, (((10, 50),), ()))]) is None
    assert gamma_measure.gamma([]) is None


def test_seeded_closer_passages_agree_more() -> None:
    book = gamma_measure.gamma([BOOK])
    assert book is not None and book == gamma_measure.gamma([BOOK])  # the seeded samples
    near = UnitizedArticle(300, (((75, 145), (220, 250)), ((76, 146), (219, 250))))
    closer = gamma_measure.gamma([near])
    assert closer is not None and book < closer < 1


def test_missing_package_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pygamma_agreement", None)  # import fails
    assert not gamma_measure.available()
    with pytest.raises(gamma_measure.GammaUnavailableError, match=r"focal\[gamma\]"):
        gamma_measure.gamma([BOOK])
    from focal.assessor.cli.main import main

    result = CliRunner().invoke(main, ["agreement", "--gamma", __file__, __file__])
    assert result.exit_code == 2 and "focal[gamma]" in result.output
    assert "Traceback" not in result.output


def test_focal_agreement_gamma_on_files(tmp_path: Path) -> None:
    from focal.assessor.cli.main import main

    # FOL qrels: topic Q0 article rel_chars article_chars bep offset:length ...
    a, b = tmp_path / "a.qrels", tmp_path / "b.qrels"
    a.write_text("1 Q0 x 100 300 75 75:70 220:30\n")
    b.write_text("1 Q0 x 120 300 70 70:80 205:20 250:20\n")
    result = CliRunner().invoke(main, ["agreement", "--gamma", "--format", "tsv", str(a), str(b)])
    assert result.exit_code == 0, result.output
    header, row, total = result.stdout.splitlines()
    cells = dict(zip(header.split("\t"), row.split("\t"), strict=True))
    assert float(cells["alpha_u"]) == pytest.approx(0.7286, abs=5e-5)
    assert float(cells["gamma"]) == pytest.approx(gamma_measure.gamma([BOOK]) or 0.0)
    assert total.split("\t")[header.split("\t").index("gamma")] == cells["gamma"]
