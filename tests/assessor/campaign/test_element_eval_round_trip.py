"""Round trip: highlights in the database -> element export -> `focal eval --task elements`
gives the numbers of the FOL export scored with `--collection` (derivation on the fly)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main
from focal.evaluation.cli.eval.command import eval_command

from ..conftest import Seeded


@pytest.fixture
def exported(seeded: Seeded, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("FOCAL_DATABASE_URL", seeded.app.config["DATABASE_URL"])
    monkeypatch.setenv("FOCAL_SECRET_KEY", "test")
    qrels = tmp_path / "alice.qrels"
    qrels.write_text(
        "1 Q0 1001 15 49 20 20:15\n1 Q0 1002 0 24\n1 Q0 1003 14 19 5 5:14\n", encoding="utf-8"
    )
    runner = CliRunner()
    imported = runner.invoke(main, ["import", "qrels", str(qrels), "--assessor", "alice"])
    assert imported.exit_code == 0, imported.output
    files = {}
    for name, extra in (("fol", []), ("elements", ["--format", "elements"])):
        result = runner.invoke(main, ["export-qrels", "--topic", "1", *extra])
        assert result.exit_code == 0, result.stderr
        files[name] = tmp_path / f"{name}.qrels"
        files[name].write_text(result.stdout, encoding="utf-8")
    # A run over every exported element and some that are not relevant, nested on purpose.
    paths = [line.split("\t")[1:3] for line in result.stdout.splitlines()]
    extra_paths = [["1002", "/article[1]"], ["1001", "/article[1]/bdy[1]/p[1]"]]
    lines = [
        f"1 Q0 {article} {rank} {100 - rank} mine {path}"
        for rank, (article, path) in enumerate([*extra_paths, *reversed(paths)], start=1)
    ]
    files["run"] = tmp_path / "mine.run"
    files["run"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    files["collection"] = seeded.collection
    return files


@pytest.mark.parametrize("quant", ["generalised", "strict", "liberal", "gen5", "binexh"])
def test_element_export_scores_like_the_fol_export_with_the_collection(
    exported: dict[str, Path], quant: str
) -> None:
    measures = ["-m", "P@k", "-m", "overlap@k", "-m", "inex_eval", "-m", "inex_eval_ng",
                "-m", "nxCG@k", "-m", "MAep"]  # fmt: skip
    common = ["--task", "elements", "-q", "--format", "tsv", "--quant", quant, *measures]
    collection = ["--collection", str(exported["collection"])]
    runner = CliRunner()
    from_export = runner.invoke(
        eval_command, [*common, *collection, str(exported["elements"]), str(exported["run"])]
    )
    from_fol = runner.invoke(
        eval_command, [*common, *collection, str(exported["fol"]), str(exported["run"])]
    )
    assert from_export.exit_code == 0, from_export.stderr
    assert from_fol.exit_code == 0, from_fol.stderr
    assert from_export.stdout == from_fol.stdout
    rows = from_export.stdout.splitlines()
    assert len(rows) > 20 and any(
        line.startswith("mine\tP@5\t1\t") and not line.endswith("\t0.0") for line in rows
    )
