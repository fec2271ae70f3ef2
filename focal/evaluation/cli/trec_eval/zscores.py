"""trec_eval's -Z: per-topic values as z-scores against a file of means and deviations.

The file holds `topic measure mean stddev` lines (trec_eval's `get_zscores.c`), read by
`formats.trec_eval_inputs.read_zscores`; a value becomes (value − mean) / stddev, or
trec_eval's -1000000 where the file has no line for the topic and measure, or a zero deviation
with a value other than the mean (`convert_zscores.c`). The `all` rows are then taken over the
z-scores as over raw values.
"""

from __future__ import annotations

from focal.evaluation.formats.trec_eval_inputs import ZScores
from focal.evaluation.measures.trec_eval.engine.run import TrecEvaluation

MISSING_ZSCORE = -1000000.0


def to_zscores(evaluation: TrecEvaluation, table: ZScores) -> None:
    """Per-topic values as z-scores (`convert_zscores.c`), in place."""
    known_topics = {topic for topic, _ in table}
    for name, column in evaluation.values.items():
        if column and isinstance(column[0], str):
            continue
        for i, topic in enumerate(evaluation.topics):
            found = table.get((topic, name)) if topic in known_topics else None
            value = float(column[i])
            if found is None:
                column[i] = MISSING_ZSCORE
            elif found[1]:
                column[i] = (value - found[0]) / found[1]
            else:
                column[i] = 0.0 if value == found[0] else MISSING_ZSCORE
