"""One URL, full page or fragment: render a named block of a page template for htmx requests.

htmx sends `HX-Request: true`; a plain navigation (or a history restore, which needs the whole
page) gets the full template. Responses vary on the header so a cache never serves a fragment
for a navigation or the reverse. jinja2-fragments is not a dependency: Jinja's compiled
templates already expose each block as a render function (`Template.blocks`).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, make_response, render_template, request
from werkzeug.wrappers import Response


def wants_fragment() -> bool:
    """True for an htmx request that swaps part of the page (not a history restore)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def render_block(template_name: str, block_name: str, **context: Any) -> str:
    """The HTML of one block of a template, with the same context `render_template` gives."""
    template = current_app.jinja_env.get_template(template_name)
    current_app.update_template_context(context)
    render = template.blocks[block_name]
    return "".join(render(template.new_context(context)))


def page_or_fragment(
    template_name: str, block_name: str, status: int = 200, **context: Any
) -> Response:
    """The whole page, or only `block_name` when htmx asks; always `Vary: HX-Request`."""
    if wants_fragment():
        html = render_block(template_name, block_name, **context)
    else:
        html = render_template(template_name, **context)
    response = make_response(html, status)
    response.vary.add("HX-Request")
    return response
