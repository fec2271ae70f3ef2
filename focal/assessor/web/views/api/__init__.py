"""The JSON API: judgement operations (`operations`) and view events (`viewing`); docs/api.md."""
