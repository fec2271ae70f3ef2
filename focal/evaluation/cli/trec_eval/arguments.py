"""trec_eval's command line, read as its `getopt_long` reads it (GNU getopt: `-l2`, `-m P.5,10`,
long forms such as `--measure=map`, options after the files), for `focal trec_eval`
(docs/trec_eval.md). Numbers are read with C's `atol`, as trec_eval reads them (a 30-digit `-M`
is the largest long); an unknown measure stops with exit code 1 as it is read, 9.0.7's
vocabulary with `--trec-version 9`.
"""

from __future__ import annotations

import getopt
from collections.abc import Sequence
from dataclasses import dataclass, field

from focal.evaluation.cli.trec_eval.stops import Stop
from focal.evaluation.formats.c_numbers import c_atol
from focal.evaluation.measures.grammar import UnknownMeasure
from focal.evaluation.measures.trec_eval.names import parse_trec

VERSION = "10.0-rc3"
SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
LONG = [
    "help", "version", "query_eval_wanted", "measure=", "complete_rel_info_wanted",
    "level_for_rel=", "nosummary", "Debug_level=", "Judged_docs_only", "Number_docs_in_coll=",
    "Max_retrieved_per_topic=", "Rel_info_format=", "Results_format=",
    "Output_old_results_format", "Zscore=", "trec-version=",
]  # fmt: skip
USAGE = (
    "Usage: focal trec_eval [-h] [-q] {-m measure}* rel_info_file results_file\n"
    "   -h: full help (options, measures, formats); -q: per-topic rows too;\n"
    "   -m: measures or sets to print (official by default; all_trec for all)\n"
)
HELP = """focal trec_eval: trec_eval 10.0's command line (docs/trec_eval.md).

  -q, --query_eval_wanted        per-topic rows before the summary
  -m, --measure NAME[.PARAMS]    measures or sets (official, all_trec, set); repeatable;
                                 parameters as trec_eval: P.5,10 ndcg.1=3,2=9 rbp.p=0.8
  -c, --complete_rel_info_wanted average over every qrels topic (missing ones score 0)
  -l, --level_for_rel N          lowest grade counted relevant (1)
  -n, --nosummary                no summary (`all`) rows
  -J, --Judged_docs_only         drop retrieved documents without a judgement
  -N, --Number_docs_in_coll N    collection size (utility)
  -M, --Max_retrieved_per_topic N  documents per topic considered
  -Z, --Zscore FILE              z-scores against FILE's `topic measure mean stddev` lines
  -R, --Rel_info_format FORMAT   qrels (default), qrels_jg, prefs, qrels_prefs
  -T, --Results_format trec_results
  -D, --Debug_level N[.qid]      no debug output; with .qid only that topic is evaluated
  -v, --version                  print the trec_eval version reproduced
  --trec-version 9|10            reproduce trec_eval 9.0.x (pytrec_eval) or 10.0 (default)
  RESULTS_FILE `-` reads standard input.

Measures: {names}
"""


@dataclass
class Request:
    """A parsed command line."""

    qrels: str = ""
    results: str = ""
    measures: list[str] = field(default_factory=list)
    per_topic: bool = False
    summary: bool = True
    zscores: str | None = None
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    options: dict[str, int | bool | None] = field(default_factory=dict)
    only_topic: str | None = None  # -D level.qid: evaluate that topic alone


def parse_arguments(argv: Sequence[str]) -> Request:
    """trec_eval's options by GNU getopt; -h and -v stop with their output (exit 0)."""
    try:
        pairs, files = getopt.gnu_getopt(list(argv), SHORT, LONG)
    except getopt.GetoptError as error:
        raise Stop(f"trec_eval: {error}\n{USAGE}", 1) from None
    request = Request()
    settings: dict[str, int | bool | None] = {}
    wants_help = False
    for option, value in pairs:
        name = option.lstrip("-")
        if name in ("h", "help"):
            wants_help = True
        elif name in ("v", "version"):
            raise Stop(f"trec_eval version {VERSION}", 0)
        elif name in ("q", "query_eval_wanted"):
            request.per_topic = True
        elif name in ("m", "measure"):
            request.measures.append(value)
        elif name in ("c", "complete_rel_info_wanted"):
            settings["complete"] = True
        elif name in ("l", "level_for_rel"):
            settings["level"] = c_atol(value)
        elif name in ("n", "nosummary"):
            request.summary = False
        elif name in ("J", "Judged_docs_only"):
            settings["judged_only"] = True
        elif name in ("N", "Number_docs_in_coll"):
            settings["num_docs"] = c_atol(value)
        elif name in ("M", "Max_retrieved_per_topic"):
            settings["max_docs"] = c_atol(value)
        elif name in ("R", "Rel_info_format"):
            request.rel_format = value
        elif name in ("T", "Results_format"):
            request.results_format = value
        elif name in ("Z", "Zscore"):
            request.zscores = value
        elif name in ("D", "Debug_level"):
            request.only_topic = value.partition(".")[2] or None
        elif name == "trec-version":
            settings["version"] = c_atol(value)
    version = settings.get("version", 10)
    for spec in request.measures:  # trec_eval refuses an unknown name as it reads -m
        try:
            parse_trec([spec], 9 if version == 9 else 10)
        except UnknownMeasure:
            raise Stop(f"trec_eval: illegal measure '{spec.partition('.')[0]}'", 1) from None
        except ValueError as error:
            raise Stop(f"trec_eval: Cannot initialize measure: {error}", 2) from None
    if wants_help:
        from focal.evaluation.measures.trec_eval.families.declarations import known_names

        raise Stop(HELP.format(names=known_names()), 0)
    if len(files) != 2:
        raise Stop(USAGE.rstrip("\n"), 1)
    request.qrels, request.results = files
    request.options = settings
    return request
