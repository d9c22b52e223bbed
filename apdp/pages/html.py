"""Assembling one self-contained HTML page: inline styles, inline scripts and the data as JSON.

A page never loads anything: no external script, style, font or image, and a ``data:`` favicon so
that the browser does not ask for one. The data goes in a ``<script type="application/json">``
element with every ``<``, ``>`` and ``&`` escaped, so that no string in it (an agent's name, a fault
message) can close the element; the scripts read it with ``JSON.parse`` and write text only through
``textContent``, never as HTML.
"""

from __future__ import annotations

import json
from functools import cache
from html import escape
from importlib import resources
from typing import Any

#: The element id of the page's data.
DATA_ID = "apdp-data"


@cache
def asset(name: str) -> str:
    """The text of ``apdp/pages/assets/NAME``."""
    return resources.files("apdp.pages").joinpath("assets", name).read_text(encoding="utf-8")


def embed_json(data: Any) -> str:
    """``data`` as compact JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )


def page(title: str, body: str, data: Any, styles: tuple[str, ...], scripts: tuple[str, ...]) -> str:
    """A whole HTML document: ``body`` (trusted markup), then the data, then the scripts.

    ``styles`` and ``scripts`` are asset names (see :func:`asset`), inlined in the order given.
    """
    css = "\n".join(asset(s) for s in styles)
    js = "\n".join(asset(s) for s in scripts)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        '<link rel="icon" href="data:,">\n'
        f"<title>{escape(title)}</title>\n<style>\n{css}\n</style>\n</head>\n<body>\n{body}\n"
        f'<script type="application/json" id="{DATA_ID}">{embed_json(data)}</script>\n'
        f"<script>\n{js}\n</script>\n</body>\n</html>\n"
    )


def stage(unit: str, extra: str = "") -> str:
    """A replay's header and its stage (trusted markup): the map, the buttons through the timeline,
    one ``unit`` (a step, an event) at a time, ``extra`` controls before the slider, and the position."""
    return f"""\
<header><h1 id="title"></h1><p id="subtitle"></p></header>
<main>
<section id="stage">
  <svg id="map" role="img" aria-label="map of the network"></svg>
  <div id="controls">
    <button id="first" title="to the start (Home)">|&#x25C0;</button>
    <button id="prev" title="one {unit} back (&#x2190;)">&#x25C1;</button>
    <button id="play" title="play or pause (space)">&#x25B6;</button>
    <button id="next" title="one {unit} on (&#x2192;)">&#x25B7;</button>
    <button id="last" title="to the end (End)">&#x25B6;|</button>{extra}
    <input id="slider" type="range" min="0" value="0" aria-label="{unit}">
    <span id="position"></span>
  </div>
</section>
"""
