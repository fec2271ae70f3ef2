"""Who does what: accounts, assignments of topics to assessors, an assessor's flags and notes, and
when articles were viewed. No Flask."""
