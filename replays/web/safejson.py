"""JSON inside HTML: the one encoder every page of the project uses for the data it embeds (the
exported replay file, the tournament report, the service's pages).

A ``<script type="application/json">`` element ends at the first ``</script`` in its text, and
the HTML parser's script states also react to ``<!--`` (a later ``<script`` then swallows the
element's end); the old escaping turned ``<!--`` into ``<\\!--``, which is not JSON, so one note
reading ``<!--`` emptied the whole page.  Here every ``<``, ``>`` and ``&`` is written as its
JSON escape (``\\u003c``, ``\\u003e``, ``\\u0026``): the text holds none of them, so no markup can
start inside it, and ``JSON.parse`` reads back exactly the value written.  U+2028 and U+2029 are
escaped too (``\\u2028``, ``\\u2029``): valid in JSON, but line terminators to older JavaScript,
should the text ever be read as a script.  These characters occur in JSON only inside strings,
where the escape means the same character.
"""

from __future__ import annotations

from typing import Any

import msgspec

_ESCAPES = ((b"<", b"\\u003c"), (b">", b"\\u003e"), (b"&", b"\\u0026"),
            ("\u2028".encode(), b"\\u2028"), ("\u2029".encode(), b"\\u2029"))
_encoder = msgspec.json.Encoder()


def html_json(value: Any) -> str:
    """``value`` as JSON text safe inside any HTML element (and a ``<script>``): see the module."""
    raw = _encoder.encode(value)
    for char, escape in _ESCAPES:
        raw = raw.replace(char, escape)
    return raw.decode("utf-8")


def json_script(id_: str, value: Any) -> str:
    """A ``<script type="application/json" id=...>`` element holding ``value`` (``id_`` is the
    page's own constant, never input)."""
    return f'<script type="application/json" id="{id_}">{html_json(value)}</script>'
