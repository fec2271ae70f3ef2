"""`focal reliability`: one command per study of spec §9 (docs/reliability.md).

    focal reliability sample --fractions 80,60,40,20 --repeats 10 --seed S --task T QRELS RUN...
    focal reliability depth --depths 5,10,20,50,100 --task T QRELS RUN...
    focal reliability topics --sizes 5,10,15 --trials 50 --tolerance 0,5,10,20,30 QRELS RUN...
    focal reliability queries --sizes 40,30,20,10 --trials 10 [--plot FILE] QRELS RUN...
    focal reliability coverage --new RUN... [--sizes 50,...,500] [--plot FILE] POOLED_RUN...
    focal reliability leave-out --groups FILE --depth D | --size N [--method unique|repool] ...
    focal reliability rankcorr [-m MEASURE] A.tsv B.tsv

Bad input is one line on stderr and exit code 2, nothing on stdout.
"""

from __future__ import annotations

import click

from focal.reliability.cli.coverage import coverage
from focal.reliability.cli.pools import depth, leave_out, sample
from focal.reliability.cli.topics import queries, rankcorr, topics


@click.group("reliability")
def reliability() -> None:
    """Can the test collection be trusted? Studies of pools, judgements and topic sets.

    The studies of spec section 9 (docs/reliability.md), after Pal, Mitra & Kamps 2011.
    """


for _command in (sample, depth, topics, queries, leave_out, coverage, rankcorr):
    reliability.add_command(_command)
