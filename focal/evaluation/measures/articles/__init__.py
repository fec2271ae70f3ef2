"""Article measures: Focal's own on FOL qrels, one topic at a time (`topic`: MAP, P@k, nDCG@k
with the relevant fraction as gain, Rprec, bpref), and trec_eval's on numpy arrays, every topic
of a run at once (`trec_eval.families`)."""
