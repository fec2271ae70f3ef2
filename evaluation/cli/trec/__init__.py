"""`focal trec_eval`: trec_eval 10.0's command line (options, files, output, exit codes) over
the article engine that `focal eval --task articles` uses too."""
