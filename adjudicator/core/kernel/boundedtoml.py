"""A bounded TOML reader: every card pool, board and island file goes through it.

Python's ``tomllib`` recurses on nested arrays and inline tables (a deep enough file exhausts the
stack: ``RecursionError``) and is quadratic in the parts of a dotted key (40 KB of ``a.a.a...= 1``
took 1.6 GB and 18 s).  :func:`load_toml_bounded` therefore scans the text once, linearly, before
``tomllib`` sees it, and refuses a file that exceeds one of the data limits of
:mod:`adjudicator.core.kernel.limits` (its size, the nesting of its document, the parts of one dotted key
or table header, its keys and array items, the length of one string), naming the file, the line
and the limit.  What the scan passes, ``tomllib`` reads in time and memory linear in its size.

The scan follows TOML's lexical structure (strings of the four kinds, comments, table headers,
keys, arrays and inline tables) as far as ``tomllib`` would read the file: wherever the file stops
being valid TOML the scan may lose its place, but ``tomllib`` refuses the file at that point, so
what follows never reaches it.  The depth it counts is an upper bound of the document's nesting
(a header's parts, each dotted key's parts, each array and inline table).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from .errors import DataError
from .limits import MAX_DATA_BYTES, MAX_DATA_TOKENS, MAX_DATA_STRING, MAX_DEPTH, MAX_DOTTED_KEY

#: the characters the scan stops at (everything else is part of a key or a scalar value)
_TOKEN = re.compile(r'"""|\'\'\'|["\'#\[\]{}=,.]|\n[ \t\r\n]*')
#: the rest of a one-line basic string (escapes skipped), a literal string, the two multi-line kinds
_BASIC = re.compile(r'[^"\\\n]*(?:\\.[^"\\\n]*)*')
_LITERAL = re.compile(r"[^'\n]*")
_ML_BASIC = re.compile(r'[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*')
_ML_LITERAL = re.compile(r"[^']*(?:'(?!'')[^']*)*")
_STRINGS = {'"': (_BASIC, '"'), "'": (_LITERAL, "'"), '"""': (_ML_BASIC, '"""'), "'''": (_ML_LITERAL, "'''")}


class _Refused(Exception):
    def __init__(self, pos: int, message: str) -> None:
        self.pos = pos
        self.message = message


def _skip_string(text: str, start: int, quote: str) -> int:
    """Where the string opened by ``quote`` at ``start`` ends (past its closing quotes)."""
    body, close = _STRINGS[quote]
    m = body.match(text, start + len(quote))
    end = m.end() if m else start + len(quote)
    if end - start - len(quote) > MAX_DATA_STRING:
        raise _Refused(start, f"a string of more than {MAX_DATA_STRING} characters")
    if text.startswith(close, end):
        end += len(close)
        extra = 0
        while len(close) == 3 and extra < 2 and text.startswith(close[0], end):  # part of the content
            end += 1
            extra += 1
    return end


class _Scan:
    """Where :func:`scan` is in a document: the open arrays and inline tables, the depth of the
    current table, and whether a key or a value is being read."""

    __slots__ = ("stack", "nested", "header", "key_mode", "in_header", "parts", "value_parts")

    def __init__(self) -> None:
        self.stack: list[tuple[str, int]] = []  # open arrays / inline tables, each with its depth cost
        self.nested = 0  # the sum of the costs on the stack
        self.header = 0  # the depth of the current table (its header's parts, +1 for an array of tables)
        self.key_mode = True  # reading a key (at a line's start, after "{" or "," in an inline table)
        self.in_header = False  # reading a table header's key
        self.parts = 1  # the parts of the key being read
        self.value_parts = 0  # the parts of the key whose value is being read (the cost of its "[" / "{")

    def key(self, tok: str, i: int) -> None:
        """A piece of a key (or of a table header) at offset ``i``."""
        if tok == ".":
            self.parts += 1
            if self.parts > MAX_DOTTED_KEY:
                raise _Refused(i, f"a dotted key or table header of more than {MAX_DOTTED_KEY} parts")
            if (0 if self.in_header else self.header) + self.nested + self.parts > MAX_DEPTH:
                raise _Refused(i, f"the document nested deeper than {MAX_DEPTH} levels")
        elif tok == "=" and not self.in_header:
            self.key_mode, self.value_parts, self.parts = False, self.parts, 1
        elif tok == "[" and not self.stack:
            if not self.in_header:
                self.in_header, self.parts = True, 1
        elif tok == "]" and self.in_header:
            self.in_header = False
            self.header = self.parts + 1
        elif tok == "}" and self.stack:
            self.nested -= self.stack.pop()[1]
            self.key_mode = False  # the inline table was a value

    def value(self, tok: str, i: int) -> None:
        """A piece of a value at offset ``i``."""
        stack = self.stack
        if tok in "[{":
            cost = 1 + self.value_parts
            self.value_parts = 0
            self.nested += cost
            if self.header + self.nested > MAX_DEPTH:
                raise _Refused(i, f"the document nested deeper than {MAX_DEPTH} levels")
            stack.append((tok, cost))
            if tok == "{":
                self.key_mode, self.parts = True, 1
        elif tok in "]}":
            if stack:
                self.nested -= stack.pop()[1]
        elif tok == "," and stack:
            if stack[-1][0] == "{":
                self.key_mode, self.parts = True, 1


def scan(text: str, max_tokens: int = MAX_DATA_TOKENS) -> None:
    """Raise :class:`_Refused` where ``text`` first exceeds a limit (see the module); ``max_tokens``
    pieces at most (a data file's :data:`MAX_DATA_TOKENS`; a tournament manifest's own limit)."""
    st = _Scan()
    pos = 0
    search = _TOKEN.search
    for _ in range(max_tokens):
        m = search(text, pos)
        if m is None:
            return
        tok = m.group()
        i = m.start()
        pos = m.end()
        if tok[0] == "\n":
            if not st.stack:
                st.key_mode, st.in_header, st.parts = True, False, 1
            continue
        if tok == "#":
            nl = text.find("\n", pos)
            pos = len(text) if nl < 0 else nl
            continue
        if tok[0] in "\"'":
            pos = _skip_string(text, i, tok)
            continue
        if st.key_mode:
            st.key(tok, i)
        else:
            st.value(tok, i)
    m = search(text, pos)
    if m is not None:
        raise _Refused(m.start(), f"more than {max_tokens} pieces (keys, values, brackets, commas, "
                                  f"strings, comments, lines)")


#: a JSON string (its escapes skipped): what :func:`json_pieces_error` does not count
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def json_pieces_error(text: str, max_tokens: int = MAX_DATA_TOKENS) -> str | None:
    """Why the JSON data file ``text`` has too many pieces (the TOML limit: its commas, objects and
    arrays, outside strings, over :data:`MAX_DATA_TOKENS`), or None.  C speed: a JSON file of a
    million tiny cards is refused before any reader builds them."""
    if text.count(",") + text.count("{") + text.count("[") <= max_tokens:
        return None
    bare = _JSON_STRING.sub("", text)
    if bare.count(",") + bare.count("{") + bare.count("[") <= max_tokens:
        return None
    return f"more than {max_tokens} pieces (values, objects, arrays)"


def load_toml_bounded(data: str | bytes, source_name: str, *, max_bytes: int = MAX_DATA_BYTES,
                      max_tokens: int = MAX_DATA_TOKENS) -> dict[str, Any]:
    """The TOML document ``data`` (text, or UTF-8 bytes) read from ``source_name``, within the
    data limits (a tournament manifest passes its own); :class:`DataError` naming ``source_name``
    (and the line) otherwise."""
    if len(data) > max_bytes:
        raise DataError(source_name, f"larger than {max_bytes} bytes")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(source_name, f"not UTF-8 text (byte {exc.start})") from None
    else:
        text = data
        if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
            raise DataError(source_name, f"larger than {max_bytes} bytes")
    try:
        scan(text, max_tokens)
    except _Refused as r:
        line = text.count("\n", 0, r.pos) + 1
        raise DataError(f"{source_name}:{line}", f"not read ({r.message}: the limit of a data file, "
                                                  f"docs/log-format.md, \"Limits\")") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(source_name, f"not valid TOML ({exc})") from None
    except ValueError:  # Python refuses to read an integer of more than 4,300 digits
        raise DataError(source_name, "not valid TOML (an integer of more than 4,300 digits)") from None
    except RecursionError:  # pragma: no cover - the scan bounds the nesting first
        raise DataError(source_name, f"not read (nested deeper than {MAX_DEPTH} levels)") from None
