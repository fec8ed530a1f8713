"""A game's notation: events and positions as a player writes them (SAN's and FEN's idea).

Every game has one :class:`Notation` (``game.notation``).  A game package gives its own with a
``notation.py`` module defining ``class Notation(adjudicator.core.kernel.notation.Notation)``; the kit
finds it (:meth:`adjudicator.core.kernel.kit.KitGame.notation`).  The base class is the game-neutral
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

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from .errors import AdjudicatorError
from .limits import MAX_DEPTH
from .events import (CORE_EVENTS, ENVELOPE_FIELDS, PRIVATE_EVENTS, CardsLooked, CardsMoved, CardsReordered, Event,
                     HIDDEN, JudgeRuling, describe_private)

if TYPE_CHECKING:
    from .protocol import Game

__all__ = ["Notation", "NotationError", "normalize", "type_words", "kind_words", "name_cards", "value_words", "MAX_TEXT"]

#: the longest text :meth:`Notation.parse` reads (an event as JSON included)
MAX_TEXT = 100_000
#: the most candidates an ambiguity lists
MAX_CANDIDATES = 20

#: the longest value of the set-up (``MatchStarted``) its words show (a deck list is ``decks=...``:
#: the set-up is read as JSON or from a match's header tags, never from these words)
MAX_SETUP_VALUE = 60

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


def kind_words(event: Any) -> str:
    """An event's type (or the type itself) in words, for a ruling's message: ``card drawn``,
    ``x-play passed`` (a judge reads words, never ``CardDrawn``); the event's own words are the
    verdict's (verify prints them beside its number), so a message names only its kind."""
    t = event if isinstance(event, type) else type(event)
    return type_words(t.__name__)


#: the words of a message an id may be (every id the pattern below finds is one of them)
_WORDS = re.compile(r"[a-z0-9][a-z0-9-]*")
#: id(cards) -> (cards, the pattern of the ids whose name differs, id -> name): a match's pool,
#: compiled once (the cards object is kept, so its id is not reused while cached)
_CARD_WORDS: dict[int, tuple[Any, Any, dict[str, str]]] = {}


def name_cards(message: str, cards: Any, keep: Any = ()) -> str:
    """``message`` with every card id of ``cards`` (a pool: id -> a card with a ``name``) written
    as the card's name (``magma-titan needs ...`` -> ``Magma Titan needs ...``): what a ruling's
    message passes through before a judge reads it, so that no check has to name cards itself.
    An id is replaced where it stands as a whole word (not inside a longer id), but for the words
    of ``keep`` (the match's players: a player called ``ash`` stays ``ash`` beside the card ``ash``)."""
    got = _CARD_WORDS.get(id(cards))
    if got is None or got[0] is not cards:
        names = {k: n for k, c in cards.items() if isinstance(k, str) and (n := getattr(c, "name", None)) and n != k}
        rx = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names, key=len, reverse=True))) + r")(?![\w-])") \
            if names else None
        if len(_CARD_WORDS) >= 64:
            _CARD_WORDS.clear()
        got = _CARD_WORDS[id(cards)] = (cards, rx, names)
    _, rx, names = got
    if rx is None or names.keys().isdisjoint(_WORDS.findall(message)):  # (most refusals name no card: no scan)
        return message
    return rx.sub(lambda m: m.group() if m.group() in keep else names[m.group()], message)


def setup_in_words(game: Any, setup: Any, r: Any) -> Any:
    """A refused set-up as a judge reads it: the pool's cards by their names (the cards its
    ``card`` references may name, ``game.context``), as a game's ``in_words`` writes a refused
    event; a set-up whose pool cannot be read keeps its message as it is."""
    try:
        known = getattr(game.context(setup).get("card"), "known", None)
    except Exception:  # noqa: BLE001 - an unreadable pool is the reference check's to report
        return r
    said = name_cards(r.message, known) if isinstance(known, dict) else r.message
    return r if said == r.message else msgspec.structs.replace(r, message=said)


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
        the piece that moves and the cards by their names.  The default: a judge's ruling and the
        private looks in words (:meth:`format_core`), a game's ``words.py`` where it has one, else
        the generic form (:meth:`format_generic`), which :meth:`parse` reads back exactly."""
        core = self.format_core(event)
        if core is not None:
            return core
        own = getattr(self.game.part("words"), "words", None) if hasattr(self.game, "part") else None
        if own is not None:
            text = own(event, state)
            if text:
                return text
        return self.format_generic(event)

    def format_core(self, event: Event) -> str | None:
        """The core's events every game's log may carry (``ruling 22 stands: reason``, ``bob
        looked at 3 cards of alice's hand``), or None for a game's own event."""
        if type(event) is JudgeRuling:
            return format_ruling(event)
        if type(event) in PRIVATE_EVENTS:
            return describe_private(event)
        return None

    def format_generic(self, event: Event) -> str:
        """The game-neutral form: who acts, the type in words, then every other field as
        ``key=value`` (``alice: card played card=fortitude``, ``turn passed``); a value is a bare
        word where it reads back as the same string, else JSON (lists: ``[a, b]``).  Reads back
        exactly, but for the set-up's long values (``decks=...``)."""
        cls = type(event)
        doc = msgspec.to_builtins(event)
        key = actor_field(cls)
        actor = doc.get(key) if key is not None else None
        words = [type_words(cls.__name__)]
        setup = cls is self.game.event_types[0]  # MatchStarted: its deck lists are no words
        for k, v in doc.items():
            if k == "type" or k in ENVELOPE_FIELDS or (k == key and isinstance(actor, str)):
                continue
            value = format_value(v)
            words.append(f"{k}={value}" if not setup or len(value) <= MAX_SETUP_VALUE else f"{k}=...")
        body = " ".join(words)
        return f"{actor}: {body}" if isinstance(actor, str) and bare_word(actor) else body

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
        """The event ``text`` writes in ``state``.  The default reads an event as JSON, the core's
        events and the generic form (:meth:`format_generic`, any event, legal or not); else, in a
        position, the text of exactly one legal event (case and spacing aside; else the one legal
        event whose text holds every word typed)."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        stripped = text.strip()
        if stripped.startswith("{"):
            return self.parse_json(stripped)
        core = parse_core(stripped)
        if core is not None:
            return self.parse_json(msgspec.json.encode(core).decode())
        try:
            return self.parse_generic(stripped)
        except NotationError as exc:
            if state is None:
                raise
            generic = exc
        try:
            return self.pick(text, [(self.format(e, state), e) for e in self.game.legal_events(state)])
        except NotationError as exc:
            if exc.candidates or generic.reason.startswith("no event type"):
                raise
            raise generic from None

    def parse_generic(self, text: str) -> Event:
        """An event in the generic form (:meth:`format_generic`); :class:`NotationError` naming
        the part that does not read."""
        actor, _, rest = text.partition(": ") if re.match(r"^[^\s:]+: ", text) else ("", "", text)
        head = re.match(r"(?:[^\s=]+(?:\s+|$))*", rest)
        said = " ".join(head.group().split()) if head else ""
        kinds = {type_words(c.__name__): c for c in self.event_classes()}
        cls = kinds.get(said.casefold())
        if cls is None:
            from .suggest import hint

            raise NotationError(text, f"no event type {said!r} in {self.game.id}"
                                f"{hint(said.casefold(), sorted(kinds), 'event types')}")
        doc: dict[str, Any] = {"type": cls.__name__}
        doc.update(read_pairs(rest, head.end() if head else 0, text))
        if actor:
            key = actor_field(cls)
            if key is None:
                raise NotationError(text, f"{cls.__name__} has no player or warband to write before ':'")
            doc[key] = actor
        return self.parse_json(msgspec.json.encode(doc).decode())

    def event_classes(self) -> tuple[type[Event], ...]:
        """Every event type this game's logs may carry (its own and the core's)."""
        return tuple(self.game.event_types) + CORE_EVENTS

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

    def compound_entries(self, state: Any, events: Sequence[Event]) -> list[tuple[str, list[Event]]]:
        """The compound entries a recorder may offer as one pick in ``state`` beside ``events``
        (its legal events): each its text (which :meth:`parse_entry` reads back as those events)
        and the events, the first of them one of ``events``.  The default: none."""
        return []

    def continues(self, state: Any, events: Sequence[Event], after: Any) -> bool:
        """Whether a recorder's entry of ``events`` (entered in ``state``, leaving ``after``) goes
        on with the next pick, recorded with it as one entry: what the table saw waiting for what
        the player chooses (a Kolossus die of destiny and the first activation).  Such an entry
        is one :meth:`parse_entry` reads.  The default: never (each pick an entry)."""
        return False

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

    # -- set-ups: deck lists ---------------------------------------------------------------------
    def deck_lines(self, setup: Any, player: str) -> list[str] | None:
        """``player``'s deck of ``setup`` as a deck list a person reads (one line a card, names
        not ids: the text form's deck section, :mod:`.textlog`), which :meth:`read_deck` reads
        back exactly; None (the default): the game writes its decks as JSON."""
        return None

    def read_deck(self, setup: Any, player: str, lines: list[str]) -> Any:
        """The deck value (``MatchStarted.decks[player]``, plain data) a :meth:`deck_lines` list
        writes; ``setup`` holds the set-up's fields read so far (its pool).  :class:`NotationError`
        naming the line; the default: the game has no deck lists in words."""
        raise NotationError(player, f"{self.game.id} writes no deck list in words: give [decks {{...}}] as JSON")

    # -- positions ---------------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        """The position in one line (FEN's idea): what the table shows, plus what ``seat`` knows
        (None: the judge, everything).  The default: the game has no position notation."""
        raise NotationError("", f"{self.game.id} has no position notation")

    def parse_position(self, text: str) -> Any:
        """The position ``text`` (a :meth:`format_position` line) writes; :class:`NotationError`
        naming what cannot be read."""
        raise NotationError(text[:80], f"{self.game.id} has no position notation")


# -- the generic form's values ---------------------------------------------------------------------

#: a string written bare: no space, quote, bracket, brace, comma or control character (one is
#: written as JSON, escaped: a terminal shows the text form as it is), and not read as another value
_BARE = re.compile(r'[^\s,\[\]{}"\x00-\x1f\x7f-\x9f]+')
_LITERAL = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def bare_word(s: str) -> bool:
    """Whether ``s`` reads back as the same string written bare."""
    return bool(_BARE.fullmatch(s)) and not _LITERAL.fullmatch(s)


def format_value(v: Any) -> str:
    """A field's value in the generic form: a bare word, ``[a, b]``, or JSON."""
    if isinstance(v, str) and bare_word(v):
        return v
    if isinstance(v, list):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    return msgspec.json.encode(v).decode()


def actor_field(cls: type[Event]) -> str | None:
    """The field written before ``:`` (who acts): the first of :data:`ACTORS` ``cls`` has."""
    names = cls.__struct_fields__
    return next((a for a in ACTORS if a in names), None)


class _Values:
    """A reader of the generic form's ``key=value`` pairs (see :func:`format_value`)."""

    def __init__(self, text: str, pos: int, whole: str) -> None:
        self.s, self.i, self.whole = text, pos, whole

    def fail(self, why: str) -> NotationError:
        return NotationError(self.whole, f"{why} at {self.s[self.i:self.i + 20]!r}" if self.i < len(self.s) else f"{why} at the end")

    def skip(self) -> None:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise self.fail(f"values nested deeper than {MAX_DEPTH}")
        s, i = self.s, self.i
        if i >= len(s):
            raise self.fail("a value is missing")
        if s[i] == "[":
            self.i += 1
            out: list[Any] = []
            self.skip()
            if self.s[self.i:self.i + 1] == "]":
                self.i += 1
                return out
            while True:
                self.skip()
                out.append(self.value(depth + 1))
                self.skip()
                c = self.s[self.i:self.i + 1]
                self.i += 1
                if c == "]":
                    return out
                if c != ",":
                    self.i -= 1
                    raise self.fail("expected ',' or ']'")
        if s[i] in '"{':
            try:
                value, end = _JSON.raw_decode(s, i)
            except ValueError as exc:
                raise self.fail(f"not a JSON value ({exc.args[0].split(':')[0]})") from None
            self.i = end
            return value
        m = _BARE.match(s, i)
        if m is None:
            raise self.fail("a value is missing")
        self.i = m.end()
        word = m.group()
        return msgspec.json.decode(word) if _LITERAL.fullmatch(word) else word


_JSON = json.JSONDecoder()
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=")


def read_pairs(text: str, pos: int, whole: str) -> dict[str, Any]:
    """The ``key=value`` pairs of ``text`` from ``pos`` on, each once."""
    r = _Values(text, pos, whole)
    out: dict[str, Any] = {}
    while True:
        r.skip()
        if r.i >= len(text):
            return out
        m = _KEY.match(text, r.i)
        if m is None:
            raise r.fail("expected key=value")
        if m.group(1) in out or m.group(1) in ("type",) + ENVELOPE_FIELDS:
            raise r.fail(f"{m.group(1)!r} given twice or not a field here")
        r.i = m.end()
        out[m.group(1)] = r.value()
        if r.i < len(text) and not text[r.i].isspace():
            raise r.fail("expected a space after the value")


# -- the core's events -------------------------------------------------------------------------------

#: a judge's ruling: ``ruling 22 stands [key=value ...][: reason]``
_RULING = re.compile(r"ruling (?P<event>\d{1,12}) (?P<decision>[a-z-]+)(?P<rest>.*)$", re.S)
_SLOTS = r"(?: \(slots? (?P<slots>\d+(?:, \d+)*)\))?"
_SOURCE = r"(?: \((?P<source>[^()]*)\))?"
_NAMES = r"(?:: (?P<names>.+))?"
_MANY = r"(?P<n>\d{1,9}) cards?"
_LOOKED = re.compile(rf"(?P<player>\S+) looked at {_MANY} of (?P<owner>\S+)'s (?P<zone>\S+){_SLOTS}{_SOURCE}{_NAMES}$", re.S)
_REORDERED = re.compile(rf"(?P<player>\S+) put {_MANY} of (?P<owner>\S+)'s (?P<zone>\S+) back in a new order{_SOURCE}{_NAMES}$", re.S)
_MOVED = re.compile(rf"{_MANY} of (?P<owner>\S+)'s (?P<from_zone>\S+) moved to (?P=owner)'s (?P<to_zone>\S+)"
                    rf"(?: by (?P<player>\S+))?{_SLOTS}{_SOURCE}, seen by (?P<seen>no one|\S+(?:, \S+)*?){_NAMES}$", re.S)


def format_ruling(r: JudgeRuling) -> str:
    """``ruling 22 stands judge=ann: the card was shown`` (the reason last, as typed)."""
    doc = msgspec.to_builtins(r)
    extra = [f"{k}={format_value(v)}" for k, v in doc.items()
             if k not in ("type", "event", "decision", "reason") and k not in ENVELOPE_FIELDS]
    head = " ".join([f"ruling {r.event} {r.decision}", *extra])
    return f"{head}: {r.reason}" if r.reason is not None else head


def parse_core(text: str) -> dict[str, Any] | None:
    """A core event's text (:meth:`Notation.format_core`) as a log line's object, else None."""
    m = _RULING.match(text)
    if m is not None:
        rest, said, reason = m.group("rest").partition(": ")
        doc = {"type": "JudgeRuling", "event": int(m.group("event")), "decision": m.group("decision")}
        doc.update(read_pairs(rest, 0, text))
        if said:
            doc["reason"] = reason
        return doc
    for cls, rx in ((CardsLooked, _LOOKED), (CardsReordered, _REORDERED), (CardsMoved, _MOVED)):
        m = rx.match(text)
        if m is None:
            continue
        g = m.groupdict()
        n = int(g["n"])
        names = g["names"].split(", ") if g.get("names") else [HIDDEN] * n
        if len(names) != n:
            raise NotationError(text, f"{n} cards said, {len(names)} named")
        doc = {"type": cls.__name__, "owner": g["owner"], "cards": names}
        for k in ("player", "zone", "from_zone", "to_zone", "source"):
            if g.get(k) is not None:
                doc[k] = g[k]
        if g.get("slots"):
            doc["slots"] = [int(x) for x in g["slots"].split(", ")]
        if cls is CardsMoved and g["seen"] != "no one":
            doc["seen_by"] = g["seen"].split(", ")
        return doc
    return None


#: event class -> the registered game whose events it is (None: no game holds it)
_GAME_OF: dict[type, Any] = {}


def event_repr(event: Event) -> str:
    """``repr`` of an event (``Event.__repr__``): ``<Type: the notation's text>``; the fields as
    msgspec writes them where no registered game holds the class (an ad hoc test event)."""
    cls = type(event)
    game = _GAME_OF.get(cls, False)
    if game is False:
        game = None
        if cls in CORE_EVENTS:
            game = next(iter(_games()), None)
        else:
            for g in _games():
                if cls in g.event_types:
                    game = g
                    break
        _GAME_OF[cls] = game
    fields = ", ".join(f"{f}={getattr(event, f)!r}" for f in cls.__struct_fields__ if getattr(event, f) is not None)
    if game is None:
        return f"{cls.__name__}({fields})"
    try:
        text = game.notation.format(event)
    except Exception:  # noqa: BLE001 - a repr never raises
        return f"{cls.__name__}({fields})"
    return f"<{cls.__name__}: {text}>"


#: every registered game (the registry's ``games``, given by :func:`install_repr`)
_games: Any = list


def install_repr(games: Any) -> None:
    """Make :func:`event_repr` every event's ``repr``, finding an event's game among ``games()``
    (the registry calls it on import, with its own ``games``)."""
    global _games
    from . import events

    _games = games
    events.REPR = event_repr
