"""Forecasts from the judgements so far: relevant articles left, how the runs' ranking may move.

Internal (pure, seeded; docs/forecast.md). `model` fits, per topic, the probability that an
unjudged pooled article is relevant from where the runs rank it (a Bayesian logistic model, valid
under every judging order Focal offers because an order chooses from judgements already made);
`topics` draws the relevant articles left from it with an interval; `ranking` draws the completed
qrels of the whole campaign and compares the runs' ranking now with the rankings they would give;
`advice` says which pairs of runs are not settled, where judging would settle them, and which
topics may stop.
"""
