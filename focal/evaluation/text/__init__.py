"""XML -> text and element table: safe parsing, INEX paths and offsets, UTF-16 mapping.

The lowest layer of `evaluation`: imports only `focal.evaluation.errors` (spec section 1).
Entry point: `focal.evaluation.text.document` (`Document`, `load_document`).
"""
