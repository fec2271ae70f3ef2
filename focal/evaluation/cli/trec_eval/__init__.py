"""trec_eval's command line and layouts: `focal trec_eval` (`command`: trec_eval 10.0's options,
files, output and exit codes), `focal eval --task articles` in trec_eval's terms (`articles`),
the layouts both print (`layout`, `writers`, `zscores`), and how both spread their runs over
workers (`workers`). The measures they print are declared in
`focal.evaluation.measures.trec_eval`."""
