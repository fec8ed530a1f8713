"""A game's notation: events and positions as a player writes them (SAN's and FEN's idea).

Every game has one :class:`Notation` (``game.notation``).  A game package gives its own with a
``notation.py`` module defining ``class Notation(adjudicator.core.notation.Notation)``; the kit
finds it (:meth:`adjudicator.core.kit.KitGame.notation`).  The base class is the game-neutral
default, built from the event's type and fields.

- :meth:`Notation.format` ``(event, state) -> str``: the event in a player's words, as short as
  SAN, names not ids (``tuatha: Warrior b9-c10-d11``, ``alice: play Sky Lancer Captain -> F3``).
  ``state`` is the position the event happens in (None: the event alone, still readable).
- :meth:`Notation.parse` ``(text, state) -> Event``: reads the short form, ids and names; an
  ambiguity or a text that reads as no event raises :class:`NotationError` (with the candidates).
  A text that starts with ``{`` is an event as JSON (one log line's object) in every game.
- :meth:`Notation.parse_entry` ``(text, state) -> list[Event]``: one entry at the table, which
  a game may read as several events (a whole activation with its move).
- :meth:`Notation.format_position` / :meth:`Notation.parse_position`: a position in one line
  (what the table shows, plus what one seat knows); the default says the game has none.

The round trip is a property every game's notation keeps over generated matches:
``parse(format(e, s), s) == e`` for every event ``e`` of a match in the position ``s`` it
happens in, and no two legal events of one position share a text.

>>> normalize("  Alice:  PLAY   Sky Lancer ")
'alice: play sky lancer'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from .errors import AdjudicatorError
from .events import ENVELOPE_FIELDS, PRIVATE_EVENTS, Event, describe_private

if TYPE_CHECKING:
    from .protocol import Game

__all__ = ["Notation", "NotationError", "normalize", "type_words", "value_words", "MAX_TEXT"]

#: the longest text :meth:`Notation.parse` reads (an event as JSON included)
MAX_TEXT = 100_000
#: the most candidates an ambiguity lists
MAX_CANDIDATES = 20

#: who acts, written first
ACTORS = ("player", "warband")


class NotationError(AdjudicatorError):
    """A text that reads as no event (or position), or as several: ``candidates`` are the texts
    of the events it could be (empty when it reads as none)."""

    def __init__(self, text: str, message: str, candidates: Sequence[str] = ()):
        self.text = text
        self.reason = message
        self.candidates = list(candidates)[:MAX_CANDIDATES]
        more = f": {'; '.join(self.candidates)}" if self.candidates else ""
        super().__init__(f"{message}{more}")


def normalize(text: str) -> str:
    """Case and spacing folded, for comparing what a person typed with a notation's text."""
    return " ".join(text.split()).casefold()


def type_words(name: str) -> str:
    """``MiniatureMoved`` -> ``miniature moved``; ``XPlayPassed`` -> ``x-play passed``."""
    name = re.sub(r"^X(?=[A-Z])", "X-", name)
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).lower()


def value_words(key: str, v: Any) -> str:
    if isinstance(v, list):
        if key == "path" or key.endswith("path"):
            return " -> ".join(map(str, v))
        return "[" + ", ".join(value_words(key, x) for x in v) + "]" if v else "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {value_words(k, x)}" for k, x in v.items()) if v else "none"
    if v is True:
        return key
    if v is None:
        return "?"
    return str(v)


class Notation:
    """The game-neutral notation (see the module); a game's ``notation.py`` subclasses it."""

    def __init__(self, game: Game) -> None:
        self.game = game

    # -- events ------------------------------------------------------------------------------
    def format(self, event: Event, state: Any = None) -> str:
        """``event`` in a player's words; ``state`` (the position it happens in) lets a game name
        the piece that moves and the cards by their names."""
        if type(event) in PRIVATE_EVENTS:
            return describe_private(event)
        own = getattr(self.game.part("words"), "words", None) if hasattr(self.game, "part") else None
        if own is not None:
            text = own(event, state)
            if text:
                return text
        doc = msgspec.to_builtins(event)
        for k in ("card", "cards"):
            if k in doc:
                v = doc[k]
                doc[k] = [self.card_name(state, c) for c in v] if isinstance(v, list) else self.card_name(state, v)
        actor = next((str(doc[a]) for a in ACTORS if isinstance(doc.get(a), str)), None)
        rest = []
        for k, v in doc.items():
            if k == "type" or k in ENVELOPE_FIELDS or (k in ACTORS and str(v) == actor) or v is False:
                continue
            text = value_words(k, v)
            plain = isinstance(v, str) or k in ("path", "card", "cards", "tile", "trait", "value", "dice")
            rest.append(text if plain else f"{k.replace('_', ' ')} {text}" if text != k else text)
        body = " ".join([type_words(type(event).__name__)] + rest)
        return f"{actor}: {body}" if actor else body

    def card_name(self, state: Any, card: Any) -> Any:
        """The name of a card of this match's pool (``Heroic Knight``), else the value as it is."""
        if state is None or not isinstance(card, str):
            return card
        try:
            info = self.game.card_info(self.game.setup_of(state), card)
        except Exception:  # noqa: BLE001 - a name is a nicety: the id stands in
            return card
        return info["name"] if info and info.get("name") else card

    def parse(self, text: str, state: Any = None) -> Event:
        """The event ``text`` writes in ``state``.  The default reads an event as JSON, or the
        text of exactly one legal event of ``state`` (case and spacing aside; else the one legal
        event whose text holds every word typed); a game's notation reads its short form for
        any event, legal or not."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        stripped = text.strip()
        if stripped.startswith("{"):
            return self.parse_json(stripped)
        if state is None:
            raise NotationError(text, "this game reads events from words only in a position (or as JSON)")
        return self.pick(text, [(self.format(e, state), e) for e in self.game.legal_events(state)])

    def parse_json(self, text: str) -> Event:
        """An event written as a log line's JSON object."""
        try:
            return self.game.decoder.decode(text.encode())
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise NotationError(text[:80], f"not an event of {self.game.id}: {exc}") from None

    def parse_entry(self, text: str, state: Any = None) -> list[Event]:
        """The events one entry at the table writes (a recorder's line, a line of a match's text
        form): a game may read a compound entry (a whole Kolossus activation with its move) as
        several events, each in the position the ones before it leave (``game.apply`` of the
        checked events, derived events left to the engine).  The default: one event."""
        return [self.parse(text, state)]

    @staticmethod
    def pick(text: str, options: Sequence[tuple[str, Event]]) -> Event:
        """The one option whose text ``text`` is (normalized), else the one holding every word
        typed; several: :class:`NotationError` with their texts; none: one with no candidates."""
        want = normalize(text)
        exact = [e for t, e in options if normalize(t) == want]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise NotationError(text, f"{text.strip()!r} reads as {len(exact)} events", [t for t, _ in options if normalize(t) == want])
        words = want.replace(":", " ").split()
        hits = [(t, e) for t, e in options if all(w in normalize(t).replace(":", " ").split() or w in normalize(t) for w in words)]
        if len(hits) == 1:
            return hits[0][1]
        if hits:
            raise NotationError(text, f"{text.strip()!r} reads as {len(hits)} events", [t for t, _ in hits])
        raise NotationError(text, f"{text.strip()!r} reads as no legal event here")

    # -- positions ---------------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        """The position in one line (FEN's idea): what the table shows, plus what ``seat`` knows
        (None: the judge, everything).  The default: the game has no position notation."""
        raise NotationError("", f"{self.game.id} has no position notation")

    def parse_position(self, text: str) -> Any:
        """The position ``text`` (a :meth:`format_position` line) writes; :class:`NotationError`
        naming what cannot be read."""
        raise NotationError(text[:80], f"{self.game.id} has no position notation")
