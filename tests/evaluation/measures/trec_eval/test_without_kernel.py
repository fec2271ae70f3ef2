"""Focal without its compiled module: `focal trec_eval` and `focal eval --task articles` run, and
print what they print with it, when `_article_kernel` cannot be imported at all (an install
without a C compiler, simulated by a `sys.meta_path` finder that refuses the import, in a fresh
process); and no module outside `kernel/` imports it (they ask `kernel.compiled()`).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import focal

KERNEL = "focal.evaluation.measures.trec_eval.kernel._article_kernel"
BUILT = importlib.util.find_spec(KERNEL) is not None
# the `focal` command in this interpreter, with or without a finder refusing the C part; at exit
# it writes whether the C part was loaded and what `kernel.status()` said, to the file in argv[1]
SCRIPT = f"""
import atexit, importlib.abc, json, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == {KERNEL!r}:
            raise ImportError("refused: this process has no compiled module")
        return None

report, blocked, arguments = sys.argv[1], sys.argv[2] == "blocked", sys.argv[3:]
if blocked:
    sys.meta_path.insert(0, Refuse())

def done():
    from focal.evaluation.measures.trec_eval.kernel import status
    with open(report, "w") as stream:
        json.dump({{"loaded": {KERNEL!r} in sys.modules, "status": status()}}, stream)

atexit.register(done)
from focal.assessor.cli.main import main
main(arguments, prog_name="focal")
"""


def focal_command(folder: Path, blocked: bool, *arguments: str) -> tuple[int, bytes, str, dict]:
    """Exit code, output, errors and the exit report of `focal ARGUMENTS` in a fresh process
    (FOCAL_KERNEL unset: `auto`; workers forked, so that they inherit the finder)."""
    environment = {k: v for k, v in os.environ.items() if k != "FOCAL_KERNEL"}
    environment["FOCAL_START_METHOD"] = "fork"
    report = folder / f"report-{blocked}.json"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(report), "blocked" if blocked else "free", *arguments],
        capture_output=True, env=environment, cwd=folder, check=False, timeout=300,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr.decode(), json.loads(report.read_text())


def write_files(folder: Path) -> list[str]:
    """Qrels of 40 topics (grades -1 to 3) and two runs of 60 documents a topic (some topics
    the qrels lack, some the runs lack; many ties), plain, as an evaluation meets them."""
    rng = random.Random(11)
    topics = [str(t) for t in range(1, 46)]
    qrels = [f"{t} 0 doc-{d:05d} {rng.choice([-1, 0, 0, 1, 2, 3])}\n" for t in topics[:40]
             for d in rng.sample(range(300), 30)]  # fmt: skip
    (folder / "qrels").write_text("".join(qrels))
    runs = []
    for name in ("a", "b"):
        lines = [f"{t} Q0 doc-{d:05d} {i} {rng.choice([1.0, 0.5, 0.25, 0.125])} {name}\n"
                 for t in topics[3:] for i, d in enumerate(rng.sample(range(300), 60))]  # fmt: skip
        (folder / name).write_text("".join(lines))
        runs.append(name)
    return ["qrels", *runs]


def test_commands_run_and_print_the_same_without_the_compiled_module(tmp_path: Path) -> None:
    files = write_files(tmp_path)
    commands = [
        ["trec_eval", "-q", "-c", "-m", "all_trec", files[0], files[1]],
        ["eval", "--task", "articles", "-j", "2", "-q", "-m", "all_trec", "--format", "tsv",
         *files],
    ]  # fmt: skip
    for arguments in commands:
        code, out, err, report = focal_command(tmp_path, True, *arguments)
        assert code == 0, (arguments, err)
        assert not report["loaded"], arguments
        assert "numpy path" in report["status"] and "not built" in report["status"]
        assert len(out.splitlines()) > 1000  # per-topic rows of every measure
        free = focal_command(tmp_path, False, *arguments)
        assert free[:3] == (code, out, err), arguments  # what the C part, when built, prints
        assert free[3]["loaded"] == BUILT  # (auto: the C part when the install built it)


def test_nothing_outside_kernel_imports_the_compiled_module() -> None:
    """Every `_article_kernel` import of Focal's source lives in `kernel/` (its `compiled()`),
    so that a missing module is never an ImportError elsewhere."""
    root = Path(focal.__file__).resolve().parent
    home = root / "evaluation" / "measures" / "trec_eval" / "kernel"
    importers = []
    for path in sorted(root.rglob("*.py")):
        if home in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                names.append(node.module or "")
            if any(name.split(".")[-1] == "_article_kernel" for name in names):
                importers.append(f"{path.relative_to(root)}:{node.lineno}")
    assert importers == []
    assert any(home.glob("_article_kernel.*")), "the C sources moved: this test looks elsewhere"
