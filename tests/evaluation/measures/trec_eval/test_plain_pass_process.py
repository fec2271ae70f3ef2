"""The whole-file pass (`engine/plain_pass.py`) in a child interpreter: it imports neither numpy
nor pyarrow nor click, and its peak memory grows with the topic index only, not with the files
(grouped by topic; read whole when they are not)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_plain_pass import PLAIN_QRELS, PLAIN_RUN, write

# A child interpreter: the pass on two files, then what it imported and its peak resident memory
# in KiB (VmHWM: its own; ru_maxrss keeps the parent's peak across exec on Linux).
# It loads the C part at $FOCAL_TEST_KERNEL when set, as the conftest does, without numpy.
CHILD = """
import importlib.machinery, importlib.util, os, sys
given = os.environ.get("FOCAL_TEST_KERNEL")
if given:
    name = "focal.evaluation.measures.trec_eval.kernel._article_kernel"
    loader = importlib.machinery.ExtensionFileLoader(name, given)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    sys.modules[name] = module
    import focal.evaluation.measures.trec_eval.kernel as package
    package._article_kernel = module
from focal.evaluation.measures.trec_eval.engine import plain_pass
block = int(sys.argv[3])
plain_pass.CHUNK = plain_pass.BLOCK = block
rows = [("map", None, (), ()), ("P", 10.0, (), ()), ("num_rel_ret", None, (), ())]
opened = plain_pass.open_plain_pass(sys.argv[1], sys.argv[2], rows, plain_pass.PlainOptions())
count = sum(1 for topic in opened) if opened is not None else -1
heavy = sorted(m for m in ("numpy", "pyarrow", "click") if m in sys.modules)
with open("/proc/self/status") as status:
    peak = [line.split()[1] for line in status if line.startswith("VmHWM:")]
print(count, ",".join(heavy) or "-", peak[0] if peak else -1)
"""


def child(qrels: str, run: str, installed: bool = False) -> tuple[int, str, int]:
    """`installed`: with the installed C part, not a sanitized build (whose allocator keeps
    freed memory in quarantine: its peak grows with all the memory ever allocated)."""
    environment = dict(os.environ)
    if installed:
        for name in ("FOCAL_TEST_KERNEL", "LD_PRELOAD", "PYTHONMALLOC", "ASAN_OPTIONS"):
            environment.pop(name, None)
    done = subprocess.run([sys.executable, "-c", CHILD, qrels, run, str(1 << 18)],
                          capture_output=True, text=True, check=False, timeout=600,
                          env=environment)  # fmt: skip
    assert done.returncode == 0, done.stderr
    count, heavy, peak = done.stdout.split()
    return int(count), heavy, int(peak)


def test_the_pass_imports_neither_numpy_nor_pyarrow_nor_click(tmp_path: Path) -> None:
    qrels, run = write(tmp_path, [PLAIN_QRELS], [PLAIN_RUN], "grouped", 0)
    assert child(qrels, run)[:2] == (2, "-")


def big_files(folder: Path, topics: int, layout: str) -> tuple[str, str]:
    """`topics` topics of 10 judged and 20 retrieved documents each."""
    qrels = [f"q{t} 0 doc{d} {d % 3}\n" for t in range(topics) for d in range(0, 20, 2)]
    run = [f"q{t} Q0 doc{d} {d} {100 - d} r\n" for t in range(topics) for d in range(20)]
    return write(folder, qrels, run, layout, 7)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="VmHWM is Linux's")
def test_memory_does_not_grow_with_the_topics(tmp_path: Path) -> None:
    """Grouped files of 2,000 and 20,000 topics (blocks of 256 KiB): peak memory grows by the
    topic index only (under 128 bytes a topic), far less than the files (ten times larger);
    shuffled (read whole), it grows with them, which shows that the measure sees a file held
    whole."""
    peaks = {}
    for topics in (2_000, 20_000):
        for layout in ("grouped", "shuffled"):
            folder = tmp_path / f"{layout}{topics}"
            folder.mkdir()
            count, _, peaks[layout, topics] = child(*big_files(folder, topics, layout), True)
            assert count == topics
    run_size = (tmp_path / "grouped20000" / "run").stat().st_size // 1024  # KiB
    grouped = peaks["grouped", 20_000] - peaks["grouped", 2_000]
    whole = peaks["shuffled", 20_000] - peaks["shuffled", 2_000]
    assert grouped * 1024 < 128 * 18_000, peaks  # the topic index only: under 128 bytes a topic
    assert grouped < run_size / 4 and whole > run_size / 2, (peaks, run_size)
    print(peaks, run_size)
