"""Building blocks of the text model; the public import path is `evaluation.documents`."""
