"""`focal trec_eval` replayed against the C trec_eval 10.0 (`TREC_EVAL`) and 9.0.7
(`TREC_EVAL_9`, through `--trec-version 9`) on the hostile cases of `trec_eval_cases.py`: the
same stdout bytes, exit code and emptiness of stderr. The C programs are built from trec_eval's
public source (docs/trec_eval.md, "Against the C programs"); without them each case skips,
saying which variable is missing. `HOSTILE_SEED` draws another set of random cases.
"""

from __future__ import annotations

import os

import pytest

from tests.evaluation.cli.trec_eval_cases import Case, cases, difference

PROGRAMS = {10: os.environ.get("TREC_EVAL", ""), 9: os.environ.get("TREC_EVAL_9", "")}
VARIABLES = {10: "TREC_EVAL (the C trec_eval 10.0)", 9: "TREC_EVAL_9 (the C trec_eval 9.0.7)"}
ALL = cases(int(os.environ.get("HOSTILE_SEED", "0")))


@pytest.mark.parametrize("case", ALL, ids=[case.name for case in ALL])
def test_same_as_the_c_program(case: Case) -> None:
    program = PROGRAMS[case.version]
    if not os.access(program, os.X_OK):
        pytest.skip(f"{VARIABLES[case.version]} not set to an executable")
    assert difference(case, program) is None
