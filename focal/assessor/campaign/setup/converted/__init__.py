"""Collections in other formats than INEX XML articles (JSON Lines, TSV, TREC SGML, HTML, text),
streamed and stored for the assessor as one XML file per document (docs/collections.md)."""
