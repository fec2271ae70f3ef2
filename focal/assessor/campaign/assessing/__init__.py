"""An assessor at work: where to go within a topic's pool and what the article screen shows.

The use cases behind the assessor's pages (`focal.assessor.web.views.assess`), no Flask: they read
the pools (`campaign.pools`) and the assessor's own state (`campaign.people`, `judging`) together,
so they sit above both.
"""
