"""Memory and time of `focal import collection` on a generated JSON Lines corpus (200 MB by
default): the issue's bound is 1 GiB of memory (docs/collections.md, "Memory").

Generated: records of our own text (about 1,300 characters each, some outside the BMP), the
size asked for. Each import runs `focal import collection` in a fresh process on a fresh SQLite
database and reports its peak resident memory (ru_maxrss of the child) and wall time:
- `pool`: with `--pool` naming 1,000 of the documents (only those are written and stored);
- `all`: every document written as an XML file and stored (`--all`; slower: a file each).

    .venv/bin/python -P benchmarks/collections.py [--megabytes 200] [--all]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOCAL = ROOT / ".venv" / "bin" / "focal"
PARAGRAPH = "Lamps, rivers and gardens, in words of our own; 𝔸 and 😀 count as one each. " * 17


def write_corpus(path: Path, megabytes: int) -> int:
    """A JSON Lines corpus of about `megabytes` MiB; how many documents."""
    number = 0
    with path.open("w", encoding="utf-8") as stream:
        while stream.tell() < megabytes << 20:
            record = {"docid": f"doc-{number}", "title": f"Document {number}", "text": PARAGRAPH}
            stream.write(json.dumps(record, ensure_ascii=False) + "\n")
            number += 1
    return number


def write_pool(path: Path, documents: int, pooled: int) -> None:
    step = max(1, documents // pooled)
    rows = [f"1\tdoc-{n}\t1\t1\tr1\n" for n in range(0, documents, step)][:pooled]
    header = "topic\tarticle\tfirst_round\tbest_rank\tcontributing_runs\n"
    path.write_text(header + "".join(rows), encoding="utf-8")


def timed_import(folder: Path, corpus: Path, *options: str) -> tuple[float, float, str]:
    """(seconds, peak MiB, output) of one import in a fresh process and database."""
    database = folder / f"import-{time.monotonic_ns()}.sqlite"
    env = dict(os.environ, FOCAL_DATABASE_URL=f"sqlite:///{database}",
               FOCAL_INSTANCE=str(folder / "instance"), FOCAL_SECRET_KEY="benchmark")  # fmt: skip
    subprocess.run([str(FOCAL), "init-db"], env=env, check=True, capture_output=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(
        [str(FOCAL), "import", "collection", str(corpus), *options],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the largest child so far: init-db is far smaller than an import
    return seconds, max(peak, before) / 1024, done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    parser.add_argument("--all", action="store_true", help="also import every document")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        corpus = folder / "corpus.jsonl"
        documents = write_corpus(corpus, args.megabytes)
        size = corpus.stat().st_size / (1 << 20)
        print(f"corpus: {size:.0f} MiB, {documents} documents")
        write_pool(folder / "pool.tsv", documents, 1000)
        seconds, peak, said = timed_import(folder, corpus, "--pool", str(folder / "pool.tsv"))
        print(f"pool: {seconds:.1f} s, peak {peak:.0f} MiB ({said})")
        if args.all:
            seconds, peak, said = timed_import(folder, corpus, "--name", "all")
            print(f"all:  {seconds:.1f} s, peak {peak:.0f} MiB ({said})")
        limit = 1024
        print(f"bound: {limit} MiB - {'kept' if peak < limit else 'EXCEEDED'}")
        sys.exit(0 if peak < limit else 1)


if __name__ == "__main__":
    main()
