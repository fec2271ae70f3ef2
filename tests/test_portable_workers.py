"""The parallel paths of the command line as they run on macOS and Windows: worker processes
spawned (`FOCAL_START_METHOD=spawn`, nothing inherited from the parent) and no
`os.sched_getaffinity`, in a fresh interpreter. Each command prints what it prints on one worker
(`-j 1`, in this process), and says on stderr (through a spy on `multiprocessing.get_context`)
whether it started processes, so that each test knows which path it took."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from focal.assessor.cli.main import main

from .evaluation.cli.test_trec_eval_threads import write_files

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "demo"
QRELS = str(DEMO / "qrels" / "demo.qrels")
RUNS = sorted(str(path) for path in (DEMO / "runs").glob("*.run"))
ELEMENT_RUN = DEMO / "element-runs" / "bm25-element-paths.run"
SPAWNED = "start method spawn"

PROBE = """
import multiprocessing, os, sys
if hasattr(os, "sched_getaffinity"):
    del os.sched_getaffinity  # as on macOS and Windows
real = multiprocessing.get_context
def told(method=None):
    print(f"start method {method}", file=sys.stderr, flush=True)
    return real(method)
multiprocessing.get_context = told
from focal.assessor.cli.main import main
sys.argv[0] = "focal"
main()
"""


def spawned(*arguments: str) -> subprocess.CompletedProcess[str]:
    """`focal ARGUMENTS` with spawned workers and no affinity mask; it must succeed."""
    environment = {**os.environ, "FOCAL_START_METHOD": "spawn"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True,
        env=environment, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done


def one_worker(*arguments: str) -> str:
    """What `focal ARGUMENTS` prints on stdout in this process."""
    result = CliRunner().invoke(main, list(arguments))
    assert result.exit_code == 0, result.output
    return result.stdout


def test_eval_on_spawned_processes_prints_what_one_worker_prints() -> None:
    arguments = ("eval", "--task", "thorough", "--format", "inex")
    done = spawned(*arguments, "-j", "2", QRELS, *RUNS)
    assert SPAWNED in done.stderr
    assert done.stdout == one_worker(*arguments, "-j", "1", QRELS, *RUNS)
    assert all(f'run-id="{Path(run).stem}"' in done.stdout for run in RUNS)


def test_focused_eval_on_all_usable_cores_prints_what_one_worker_prints() -> None:
    """The focused task runs on threads, as many as `-j 0` finds cores without an affinity
    mask: no process is started."""
    arguments = ("eval", "--task", "focused", "--format", "inex", "-j")
    done = spawned(*arguments, "0", QRELS, *RUNS)
    assert "start method" not in done.stderr
    assert done.stdout == one_worker(*arguments, "1", QRELS, *RUNS)
    assert 'run-id="bm25-passages"' in done.stdout


def test_element_eval_sends_qrels_and_collection_to_spawned_workers(tmp_path: Path) -> None:
    """Element qrels derived from the FOL qrels with the collection: both go to each worker."""
    other = tmp_path / "other.run"
    other.write_text(ELEMENT_RUN.read_text().replace("bm25-element-paths", "other"))
    arguments = ("eval", "--task", "elements", "--collection", str(DEMO / "collection"), "-q")
    files = (QRELS, str(ELEMENT_RUN), str(other))
    done = spawned(*arguments, "-j", "2", *files)
    assert SPAWNED in done.stderr
    assert done.stdout == one_worker(*arguments, "-j", "1", *files)
    assert 'run-id="other"' in done.stdout and 'run-id="bm25-element-paths"' in done.stdout


def write_trec_files(folder: Path, runs: int) -> list[str]:
    """TREC qrels and runs of over 1 MiB in all, so that `focal eval --task articles` takes
    workers (`running.article_workers.FEW_BYTES`)."""
    qrels, paths = write_files(folder, runs, topics=100, judged=60, ranked=100, documents=120,
                               scores=(999, 100), seed=7)  # fmt: skip
    return [qrels, *paths]


def test_article_eval_of_trec_files_prints_what_one_worker_prints(tmp_path: Path) -> None:
    """Where workers are spawned, trec_eval's measures go to threads (a spawned worker would
    read the qrels again before its first run; `running.article_workers`)."""
    from focal.evaluation.running.article_workers import FEW_BYTES

    files = write_trec_files(tmp_path, 5)
    assert sum(os.path.getsize(path) for path in files[1:]) > FEW_BYTES
    arguments = ("eval", "--task", "articles", "-q", "-m", "map", "-m", "P.10", "-m", "ndcg")
    done = spawned(*arguments, "-j", "2", *files)
    assert "start method" not in done.stderr
    assert done.stdout == one_worker(*arguments, "-j", "1", *files)
    assert done.stdout.count("\tall\t") == 5 * 3


def test_pool_build_without_an_affinity_mask_builds_the_same_pool() -> None:
    """`focal pool build` reads its runs on as many threads as there are usable cores."""
    arguments = ("pool", "build", "--size", "10", *RUNS)
    done = spawned(*arguments)
    assert done.stdout == one_worker(*arguments)
    assert done.stdout.startswith("topic\tarticle\t") and "\n9005\t" in done.stdout


@pytest.mark.slow
def test_reliability_sample_on_spawned_processes_gives_the_same_table() -> None:
    arguments = (
        "reliability", "sample", "--task", "thorough", "--fractions", "80,40", "--repeats", "2",
        "--format", "tsv",
    )  # fmt: skip
    done = spawned(*arguments, "-j", "2", QRELS, *RUNS)
    assert SPAWNED in done.stderr
    assert done.stdout == one_worker(*arguments, "-j", "1", QRELS, *RUNS)
    assert done.stdout.startswith("percent\trepeats\t") and "\n40\t2\t" in done.stdout
