"""Judging order: which pooled article an assessor should judge next (pure, seeded).

Runs are the arms of a multi-armed bandit and a relevant article is the reward (Losada, Parapar
and Barreiro, SAC 2016 and IPM 2017; move-to-front after Cormack, Palmer and Clarke, SIGIR 1998):
choosing the next article from the judgements made so far finds most relevant articles with a
fraction of the judgements. `arms` holds the state (each run's pooled articles in rank order, what
is judged), `policies` the choices, `replay` orders a whole pool from complete judgements (the
simulator) or suggests the next article from an assessor's judgements so far (how many relevant
articles are left is `focal.pooling.forecast`'s). docs/pooling.md gives the definitions.
"""
