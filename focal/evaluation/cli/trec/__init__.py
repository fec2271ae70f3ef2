"""trec_eval's command line and layouts: `focal trec_eval` (trec_eval 10.0's options, files,
output and exit codes) over the article engine that `focal eval --task articles` uses too, the
layouts both print, and how both spread their runs over workers."""
