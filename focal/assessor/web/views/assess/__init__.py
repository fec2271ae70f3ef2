"""The assessor's pages: topics, a topic's pool, the article screen, the 2005 two-phase screen,
notes."""
