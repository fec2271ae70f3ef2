"""trec_eval's command line and layouts: `focal trec_eval` (`command`: trec_eval 10.0's options,
files, output and exit codes; `compiled`, its path through the C part's whole-file pass on plain
files, `engine_path` through the article engine, `stops` where both stop; `click_command`, the
command as the `focal` group lists it), what `focal eval --task articles` prints in trec_eval's
terms (`articles`; its runs are evaluated by `focal.evaluation.running.articles`), and the
layouts both print (`layout`, `writers`, `zscores`). The measures they print are declared in
`focal.evaluation.measures.trec_eval`."""
