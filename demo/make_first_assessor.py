"""Write the first assessor's judgements of topic 9001 made before the demo opens
(demo/qrels/assessor-9001.qrels).

    .venv/bin/python demo/make_first_assessor.py demo/qrels/assessor-9001.qrels

`focal demo` loads these as `assessor`'s, so that topic 9001 is really judged twice when the demo
opens: Agreement compares two assessors on four articles and Adjudication has two disagreements
to decide. They were written as a reader of the narrative could plausibly judge articles further
down the pool, differing from `assessor2` (`make_second_assessor.py`) in two ways:

- 1005 (Foghorn): relevant, like `assessor2`, but only the sentence on foghorns at lighthouses
  and their patterns, a part of `assessor2`'s paragraph (the passages partly agree);
- 1006 (Lighthouse keeper): relevant, the morning's cleaning and covering of the lens, which
  `assessor2` (and the reference qrels) judged not relevant: the narrative excludes cleaning
  routines, a near miss read the other way (opposite verdicts);
- 1008 and 1010: not relevant, as `assessor2` judged them (agreement).

The articles at the head of the pool (1001-1004) are left for the assessor to judge in the
browser. Passages are given as in `make_qrels.py` (first words, last words).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parent
sys.path.insert(0, str(DEMO))

from make_qrels import PassageSpec  # noqa: E402
from make_second_assessor import build  # noqa: E402

from focal.evaluation.formats.fol.qrels import write_qrels  # noqa: E402

JUDGED = ["1005", "1006", "1008", "1010"]
"""Articles of topic 9001's pool judged before the demo opens, in pool order."""

RELEVANT: dict[str, list[PassageSpec]] = {
    "1005": [("Foghorns were fitted at lighthouses", "pattern of flashes.")],
    "1006": [("In the morning the lamp was put out", "even start a fire.")],
}


def qrels_text() -> str:
    buffer = io.StringIO()
    write_qrels(build(judged=JUDGED, relevant=RELEVANT), buffer)
    return buffer.getvalue()


if __name__ == "__main__":
    Path(sys.argv[1]).write_text(qrels_text(), encoding="utf-8")
