"""Security headers on every response, the static files and error pages included.

The Content-Security-Policy lets scripts come only from the app's own files (`static/`, htmx
vendored there): no inline script, no `eval`, so markup that slipped into a page could not
run. The article page's speculation rules (prefetching the next article) are JSON, not
script; `'inline-speculation-rules'` admits exactly those. Styles come from `static/` too;
only `style` attributes are allowed inline (the two-phase screen indents elements by depth),
never a `<style>` element (htmx's own indicator styles are switched off in `base.html`).
`frame-ancestors 'none'` and `X-Frame-Options: DENY` keep every page out of other sites'
frames (no click-jacking of a logged-in assessor).

On a request that came over https, browsers are told to use https only
(`Strict-Transport-Security`) and the session cookie is marked `Secure`: the request is https
when the server itself speaks TLS, or when a trusted reverse proxy says so
(`X-Forwarded-Proto`, believed only with `TRUSTED_PROXIES` set: `rate_limits.init_app`). So a
proxied https deployment needs `TRUSTED_PROXIES` alone; `SESSION_COOKIE_SECURE` set marks
every cookie `Secure` and sends the header on every response, whatever the request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self' 'inline-speculation-rules'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def init_app(app: Flask) -> None:
    """Add the headers to every response of `app`; cookies `Secure` on https requests."""
    from flask import request
    from flask.sessions import SecureCookieSessionInterface

    always = bool(app.config.get("SESSION_COOKIE_SECURE"))

    class HttpsAwareSessions(SecureCookieSessionInterface):
        """Flask's signed-cookie sessions, `Secure` whenever the request is https."""

        def get_cookie_secure(self, app: Flask) -> bool:
            return always or request.is_secure

    app.session_interface = HttpsAwareSessions()

    @app.after_request
    def _security_headers(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if always or request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        return response
