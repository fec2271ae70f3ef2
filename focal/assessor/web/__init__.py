"""The web app: `app.create_app`, log-in and CSRF (`auth`), XML -> HTML (`rendering`), `views`.

Flask lives here and in `cli` only. Imports `campaign`, `judging`, `store` and `evaluation`;
nothing below imports it.
"""
