"""Collections are read as a stream: peak memory does not grow with the file (docs/collections.md,
"Memory"). A bound on memory, not on speed: benchmarks/collections.py times a 200 MB import."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

# Read every document of the file given, store the pooled one as the assessor's import does,
# and print the peak resident set size in KiB (Linux's ru_maxrss).
READ = """
import resource, sys, tempfile
from pathlib import Path
from focal.assessor.campaign.setup.converted.stored import Converted, store_collection
with tempfile.TemporaryDirectory() as store:
    folder, rows, _ = store_collection(sys.argv[1], None, Converted(Path(store),
                                       pooled=frozenset({"doc-7"})))
    assert [row.id for row in rows] == ["doc-7"], rows
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def write_corpus(path: Path, megabytes: int) -> Path:
    paragraph = "Our own words about lamps, rivers and gardens, 𝔸 and 😀 included. " * 20
    with path.open("w", encoding="utf-8") as stream:
        number = 0
        while stream.tell() < megabytes << 20:
            record = {"docid": f"doc-{number}", "title": f"Document {number}", "text": paragraph}
            stream.write(json.dumps(record, ensure_ascii=False) + "\n")
            number += 1
    return path


def peak_kib(path: Path) -> int:
    done = subprocess.run(
        [sys.executable, "-c", READ, str(path)], capture_output=True, text=True, check=True
    )
    return int(done.stdout.split()[-1])


def test_peak_memory_does_not_grow_with_the_collection(tmp_path: Path) -> None:
    small = peak_kib(write_corpus(tmp_path / "small.jsonl", 1))
    large = peak_kib(write_corpus(tmp_path / "large.jsonl", 32))
    # Holding the file (or its documents) would add well over 32 MiB; the kept rows of the
    # ids seen (about 22,000 short strings) and allocator noise stay far below 16 MiB.
    assert large - small < 16 * 1024, (small, large)
