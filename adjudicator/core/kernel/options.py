"""Ruleset options: a named preset merged with a log's overrides, decoded into a game's Struct.

Every game declares its options as a msgspec Struct (one field per option, its default the
project's interpretation) and its presets as dicts of overrides.  ``MatchStarted`` names a preset
(``ruleset``) and may override single options (``options``).  An unknown preset, an unknown option
or a value of the wrong type makes the log unreadable: :class:`RefError` names the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from .protocol import RefError

T = TypeVar("T")


def resolve_options(options_type: type[T], presets: Mapping[str, Mapping[str, Any]], ruleset: str,
                    overrides: Mapping[str, Any]) -> T:
    """The options of ``ruleset`` with ``overrides`` applied (raises :class:`RefError`)."""
    if ruleset not in presets:
        raise RefError("ruleset", f"unknown ruleset {ruleset!r} (presets: {', '.join(presets)})")
    merged = {**presets[ruleset], **overrides}
    try:
        return msgspec.convert(merged, options_type)
    except msgspec.ValidationError as exc:
        text = str(exc)
        if "unknown field" in text:
            name = text.split("`")[1] if "`" in text else "?"
            known = ", ".join(options_type.__struct_fields__)  # type: ignore[attr-defined]
            raise RefError(f"options.{name}", f"unknown option (known: {known})") from None
        field = "options"
        if " - at `$" in text:
            text, _, path = text.partition(" - at `$")
            field = "options" + path.rstrip("`")
        raise RefError(field, text) from None
