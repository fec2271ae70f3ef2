"""Pools in the database: built from the imported runs (`build`), listed for an assessor
(`listing`), described (`statistics`), and what the runs retrieved in an article (`retrieved`).
No Flask."""
