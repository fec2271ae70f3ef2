"""Pools in the database: built from the imported runs (`build`), listed for an assessor
(`listing`),
and described (`statistics`). No Flask."""
