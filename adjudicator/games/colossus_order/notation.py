"""The Colossus Order notation: every event in a player's words, read back exactly (issue 30).

``alice: play Sky Lancer Captain -> F3``, ``bob: pass``, ``alice: draw Grave Rat``, ``bob: attack
F2 -> F4``: the seat, a colon, a verb and its values.  Cards are written by name (the match's pool),
followers by handle (``F3``), Locus slots by number.  docs/games/colossus-order.md ("Notation")
gives the grammar of every event; :mod:`.position_line` writes a position in one line.

Reading is structural, not a lookup among the legal events: a scorekeeper writes what happened
at the table, legal or not, and ``verify`` rules on it.  So every value a log line can hold must
be writable and read back exactly:

- a card of the pool is its name (read: its name or id, case, spacing and ``★`` aside); ``?`` is
  the unknown card (:data:`~adjudicator.core.kernel.events.HIDDEN`), ``-`` the card the record leaves
  out (``null``), a commitment is written as it is (``sha256:...``);
- any other value (a card id the pool does not have, a handle that is not ``F<n>``, free text)
  is written as a JSON string (``"nobody"``) and read back verbatim; an unquoted name the pool
  does not know is a :class:`~adjudicator.core.kernel.notation.NotationError` with the closest names.

What needs the position (``state``): card names (without it only ids are read, and written), the
kind of card a plain ``play`` plays (``play follower``/``play action`` say it without one),
followers named by card instead of handle, and the seat of a text without ``<seat>:`` (the seat
that must act: ``pass`` and ``p`` are the whole text of a priority pass).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from adjudicator.core.kernel.commitments import looks_like
from adjudicator.core.kernel.events import HIDDEN, Event
from adjudicator.core.kernel.notation import MAX_TEXT, Notation as BaseNotation, NotationError
from adjudicator.core.kernel.suggest import closest

from . import events as E
from .setup_words import format_start, parse_start

__all__ = ["Notation", "card_by_name"]

#: the text of a card field the record leaves out (``null``), beside ``?`` (:data:`HIDDEN`)
NONE = "-"
#: the text of an empty list of cards or slots
NOTHING = "nothing"
#: the most items a list in one text may hold (a deck hit's reveal, a declaration's slots)
MAX_ITEMS = 1000

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")
_HANDLE = re.compile(r"F[1-9][0-9]*\Z")
_INT = re.compile(r"-?[0-9]{1,18}\Z")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_WORDS = re.compile(r"[^\s\"]+(?: [^\s\"]+)*\Z")


def _fold(text: str) -> str:
    """A name as compared: case, spacing and the ``★`` of unique cards aside."""
    return " ".join(text.replace("★", " ").split()).casefold()


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _unquote(text: str) -> str | None:
    """The string a quoted text holds, or None when ``text`` is not one quoted string."""
    if len(text) >= 2 and text[0] == '"' and _QUOTED.fullmatch(text):
        try:
            return json.loads(text)
        except ValueError:
            return None
    return None


def _free(text: str) -> str:
    """Free text (a reason) written plain when it reads back as itself, else quoted."""
    return text if text and _WORDS.match(text) and text[0] not in '"(' and text.isprintable() else _quote(text)


def _squeeze(text: str) -> str:
    """``text`` with its spacing folded outside quoted strings (kept exactly inside)."""
    parts = re.split(r'("(?:[^"\\]|\\.)*")', text)
    out = "".join(p if i % 2 else re.sub(r"\s+", " ", p) for i, p in enumerate(parts))
    return out.strip()


def _cut(text: str, sep: str) -> tuple[str, str, str]:
    """``text.partition(sep)`` at the first ``sep`` outside quoted strings."""
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|' + re.escape(sep), text):
        if m.group() == sep:
            return text[:m.start()], sep, text[m.end():]
    return text, "", ""


def _split(text: str, sep: str = ",") -> list[str]:
    """``text`` split on ``sep`` outside quoted strings, each part stripped."""
    parts, cur, i = [], [], 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            m = _QUOTED.match(text, i)
            if m:
                cur.append(m.group())
                i = m.end()
                continue
        if ch == sep:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    parts.append("".join(cur).strip())
    if len(parts) > MAX_ITEMS:
        raise NotationError(text[:80], f"more than {MAX_ITEMS} items in one list")
    return parts


class _Cards:
    """The names of one pool: folded name or id -> id (built once per pool)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.by_fold: dict[str, str] = {}
        for cid in pool:
            self.by_fold.setdefault(_fold(cid), cid)
        for cid, card in pool.items():
            self.by_fold[_fold(card.name)] = cid
        self.names = sorted(card.name for card in pool.values())


def card_by_name(setup: Any, text: str) -> str:
    """The card id of the set-up's pool that ``text`` names (a name or an id, case, spacing and
    ``★`` aside); :class:`NotationError` with the closest names when it names none.  For the deck
    lists the recorder reads (``3 Grave Rat``)."""
    from .cards import POOLS

    return _resolve(_cards_of(POOLS.of_setup(setup)), text)


_INDEX: dict[int, _Cards] = {}


def _cards_of(pool: Any) -> _Cards:
    got = _INDEX.get(id(pool))
    if got is None or got.pool is not pool:
        if len(_INDEX) > 64:
            _INDEX.clear()
        got = _INDEX[id(pool)] = _Cards(pool)
    return got


def _resolve(cards: _Cards, text: str) -> str:
    cid = cards.by_fold.get(_fold(text))
    if cid is not None:
        return cid
    near = closest(_fold(text), [_fold(n) for n in cards.names])
    cands = [n for n in cards.names if _fold(n) == near] if near else []
    raise NotationError(text, f"no card {text.strip()!r} in the pool {cards.pool.name!r}"
                              + ("; did you mean" if cands else ""), cands)


def _setup_cards(setup: Any) -> _Cards | None:
    """The names of the pool a set-up (or a set-up's fields: ``pool``, ``pool_sha256``) names, or
    None when it cannot be loaded."""
    from types import SimpleNamespace

    from .cards import POOLS

    get = setup.get if isinstance(setup, dict) else lambda k, d=None: getattr(setup, k, d)
    try:
        return _cards_of(POOLS.of_setup(SimpleNamespace(pool=get("pool") or "sample", pool_sha256=get("pool_sha256"))))
    except Exception:  # noqa: BLE001 - no names: the deck stays as written in JSON
        return None


def _deck_card(cards: _Cards, cid: str) -> str:
    """A card of a deck list: its name where the name reads back as the card, else its id
    (quoted when it is not a plain id)."""
    c = cards.pool.get(cid)
    if c is not None and cards.by_fold.get(_fold(c.name)) == cid and _WORDS.match(c.name) and c.name[0] not in '"(' \
            and c.name.isprintable():
        return str(c.name)
    return cid if _PLAIN.match(cid) and cards.by_fold.get(_fold(cid), cid) == cid else _quote(cid)


def _read_deck_card(cards: _Cards | None, text: str) -> str:
    t = text.strip()
    q = _unquote(t)
    if q is not None:
        return q
    if cards is None:
        if _PLAIN.match(t):
            return t
        raise NotationError(text, f"{t!r}: the pool cannot be loaded, so a card is its id")
    return _resolve(cards, t)


class Notation(BaseNotation):
    """Colossus Order events in a player's words (the module says what needs the position)."""

    # -- values ------------------------------------------------------------------------------
    def _cards(self, state: Any) -> _Cards | None:
        if state is None:
            return None
        from .cards import POOLS

        try:
            return _cards_of(POOLS.of_setup(state.setup))
        except Exception:  # noqa: BLE001 - a pool that cannot be loaded: ids stand in for names
            return None

    def w_card(self, card: str | None, state: Any) -> str:
        if card is None:
            return NONE
        if card == HIDDEN or looks_like(card):
            return card
        cards = self._cards(state)
        if cards is None:
            return card if _PLAIN.match(card) and card != NOTHING else _quote(card)
        c = cards.pool.get(card)
        if (c is None or cards.by_fold.get(_fold(c.name)) != card or not _WORDS.match(c.name) or c.name[0] in '"(-?'
                or not c.name.isprintable()):  # a control character is never written raw (terminals)
            return _quote(card)
        return c.name

    def r_card(self, text: str, state: Any) -> str | None:
        t = text.strip()
        if t == NONE:
            return None
        if t == HIDDEN or looks_like(t):
            return t
        q = _unquote(t)
        if q is not None:
            return q
        if not t:
            raise NotationError(text, "a card is missing")
        cards = self._cards(state)
        if cards is None:
            if _PLAIN.match(t) and t.lower() == t:
                return t
            raise NotationError(text, f"{t!r}: a card is read by name only in a position (without one: its id)")
        return _resolve(cards, t)

    def w_cards(self, cards: list[str | None], state: Any) -> str:
        return ", ".join(self.w_card(c, state) for c in cards) if cards else NOTHING

    def r_cards(self, text: str, state: Any) -> list[str | None]:
        """A list of cards: names may hold commas (``Morvane, the Hollow Queen``): the longest run
        of parts that names a card is taken first."""
        if text.strip().casefold() == NOTHING:
            return []
        parts = _split(text)
        cards = self._cards(state)
        out: list[str | None] = []
        i = 0
        while i < len(parts):
            for j in range(min(len(parts), i + 4), i, -1):
                piece = ", ".join(parts[i:j])
                if j > i + 1:  # joined parts: only a whole name of the pool (no did-you-mean search)
                    if cards is None or _fold(piece) not in cards.by_fold:
                        continue
                    out.append(cards.by_fold[_fold(piece)])
                else:
                    out.append(self.r_card(piece, state))
                i = j
                break
        return out

    @staticmethod
    def w_handle(h: str | None) -> str:
        return NONE if h is None else h if _HANDLE.match(h) else _quote(h)

    def r_handle(self, text: str, state: Any) -> str | None:
        t = text.strip()
        if t == NONE:
            return None
        q = _unquote(t)
        if q is not None:
            return q
        if re.fullmatch(r"[Ff][1-9][0-9]*", t):
            return t.upper()
        if state is not None:
            hits = [(f.handle, p.id) for p in state.players for f in p.field
                    if _fold(self.w_card(f.card, state)) == _fold(t) or _fold(f.card) == _fold(t)]
            if len(hits) == 1:
                return hits[0][0]
            if hits:
                raise NotationError(text, f"{t!r} is {len(hits)} followers", [f"{h} ({p})" for h, p in hits])
            handles = [f.handle for p in state.players for f in p.field]
            raise NotationError(text, f"no follower {t!r} on the field" + ("; the followers" if handles else ""), handles)
        raise NotationError(text, f"{t!r} is not a follower's handle (F1, F2, ...)")

    def w_handles(self, hs: list[str]) -> str:
        return ", ".join(self.w_handle(h) for h in hs) if hs else NOTHING

    def r_handles(self, text: str, state: Any) -> list[str]:
        if text.strip().casefold() == NOTHING:
            return []
        return [self._need(self.r_handle(p, state), p) for p in _split(text)]

    @staticmethod
    def _need(v: Any, text: str) -> Any:
        if v is None:
            raise NotationError(text, f"{text.strip()!r}: a value is needed here, not {NONE}")
        return v

    @staticmethod
    def w_int(n: int | None) -> str:
        return NONE if n is None else str(n)

    @staticmethod
    def r_int(text: str, opt: bool = False) -> Any:
        t = text.strip()
        if opt and t == NONE:
            return None
        if not _INT.match(t):
            raise NotationError(text, f"{t!r} is not a number")
        return int(t)

    def w_ints(self, ns: list[int]) -> str:
        return ",".join(map(str, ns)) if ns else NOTHING

    def r_ints(self, text: str) -> list[int]:
        if text.strip().casefold() == NOTHING:
            return []
        return [self.r_int(p) for p in _split(text)]

    @staticmethod
    def w_player(p: str | None) -> str:
        return NONE if p is None else p if _PLAIN.match(p) else _quote(p)

    @staticmethod
    def r_player(text: str, state: Any) -> str:
        t = text.strip()
        q = _unquote(t)
        if q is not None:
            return q
        if state is not None:
            for p in state.setup.players:
                if p.casefold() == t.casefold():
                    return p
        if _PLAIN.match(t):
            return t
        raise NotationError(text, f"{t!r} is not a seat")

    @staticmethod
    def actor(state: Any) -> str | None:
        """The seat that must act in ``state`` (a text without ``<seat>:`` is theirs)."""
        if state is None:
            return None
        if state.todo:
            task = state.todo[0]
            for k in ("priority", "player", "chooser"):
                v = getattr(task, k, None)
                if isinstance(v, str):
                    return v
        return state.turn_player

    # -- events ------------------------------------------------------------------------------
    def format(self, event: Event, state: Any = None) -> str:
        """``event`` as ``<seat>: <verb> <values>`` (the grammar: docs/games/colossus-order.md)."""
        fn = _FORMAT.get(type(event))
        if fn is None:
            return super().format(event, state)
        body = fn(self, event, state)
        if type(event) in _SEATLESS:
            return body
        return f"{self.w_player(event.player)}: {body}"  # type: ignore[attr-defined]

    def parse(self, text: str, state: Any = None) -> Event:
        """The event ``text`` writes, legal or not (see the module for what needs ``state``)."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        t = _squeeze(text)
        if t.startswith("{"):
            return self.parse_json(text.strip())
        if t[:6].casefold() == "start ":  # the set-up in words, or with ids (start players=...)
            return parse_start(self, self.game.id, t) or _positions().parse_setup(self.game, t)
        m = re.match(r"game over:\s*(.*)\Z", t, re.I)
        if m:
            return _game_over(self, m.group(1))
        private = _private(self, t, state)
        if private is not None:
            return private
        player, body = self._seat(t, state)
        if player is None:
            return super().parse(text, state)
        verb = body.split(" ", 1)[0].casefold() if body else ""
        for rx, fn in _PARSE.get(verb, ()):
            m = rx.match(body)
            if m:
                try:
                    return fn(self, player, m, state)
                except NotationError as x:
                    raise _whole(x, player, body) from None
        try:
            return super().parse(text, state)
        except NotationError as x:
            if x.candidates:  # several legal events hold every word typed: they are the answer
                raise
        if verb in _PARSE:
            raise NotationError(text, f"{body!r} does not read as a {verb} event (docs/games/colossus-order.md, Notation)")
        verbs = sorted(_PARSE)
        near = closest(verb, verbs)
        raise NotationError(text, f"{body!r} is no Colossus Order event (verbs: {', '.join(verbs)})",
                            [f"{self.w_player(player)}: {near}{body[len(verb):]}"] if near else [])

    def parse_entry(self, text: str, state: Any = None) -> list[Event]:
        """One entry at the table: an event, or an attack with the defender's decision not to
        block (``alice: attack F2 -> deck, no block``: AttackDeclared, then the opponent's
        BlockDeclined), the common case of an attack written once.  The opponent is the
        position's (``state`` needed for the compound form)."""
        m = re.fullmatch(r"(.*\battack\b.*?),? no block", _squeeze(text), re.I)
        if m is None or state is None:
            return [self.parse(text, state)]
        attack = self.parse(m.group(1), state)
        if type(attack) is not E.AttackDeclared:
            return [self.parse(text, state)]
        others = [p for p in state.setup.players if p != attack.player]
        if len(others) != 1:
            raise NotationError(text, f"{attack.player!r} is not one of the two seats: say who does not block")
        return [attack, E.BlockDeclined(player=others[0])]

    # -- set-ups: deck lists -------------------------------------------------------------------
    def deck_lines(self, setup: Any, player: str) -> list[str] | None:
        """``player``'s deck of ``setup`` as a deck list a person reads (the text form's deck
        section, :mod:`adjudicator.core.kernel.textlog`): ``colossus: <name>``, then ``<count>
        <name>`` a line in the deck's order, ``size: N`` for a list the record leaves unknown
        (CO-39.1); :meth:`read_deck` reads it back exactly.  None where a card has no name that
        reads back (a card the pool lacks is written as its id in quotes)."""
        deck = setup.decks.get(player)
        cards = _setup_cards(setup)
        if deck is None or cards is None:
            return None
        out = [f"colossus: {_deck_card(cards, deck.colossus)}"]
        out += [f"{n} {_deck_card(cards, cid)}" for cid, n in deck.cards.items()]
        if deck.size is not None:
            out.append(f"size: {deck.size}")
        return out

    def read_deck(self, setup: Any, player: str, lines: list[str]) -> Any:
        """The deck value (``MatchStarted.decks[player]`` as plain data) a :meth:`deck_lines`
        list writes (cards by name or id, case and spacing aside; a count may be written
        ``3x``); :class:`NotationError` naming the line (``.candidates``: the closest names of a
        card it does not know).  ``setup`` names the pool (``pool``, ``pool_sha256``)."""
        cards = _setup_cards(setup)
        doc: dict[str, Any] = {"cards": {}}
        for i, raw in enumerate(lines):
            line = " ".join(raw.split())
            key, colon, rest = line.partition(":")
            try:
                if colon and key.casefold() in ("colossus", "size"):
                    if key.casefold() in doc:
                        raise NotationError(line, f"{key.casefold()} given twice")
                    doc[key.casefold()] = _read_deck_card(cards, rest) if key.casefold() == "colossus" else self.r_int(rest)
                    continue
                m = re.fullmatch(r"(\d{1,9})\s*[xX×]?\s+(.+)", line)
                if m is None:
                    raise NotationError(line, "a deck list's line is '<count> <card>', 'colossus: <card>' or 'size: N'")
                cid = _read_deck_card(cards, m.group(2))
                doc["cards"][cid] = doc["cards"].get(cid, 0) + int(m.group(1))
            except NotationError as x:
                err = NotationError(raw, f"{player}'s deck list: {x.reason}", x.candidates)
                err.line = i  # type: ignore[attr-defined]  # (the reader names the file's line)
                raise err from None
        if "colossus" not in doc:
            raise NotationError(player, f"{player}'s deck list names no colossus ('colossus: <card>')")
        return doc

    # -- positions ---------------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        """The position in one line (:mod:`.position_line`): the judge's view, or with ``seat``
        what that seat sees (``game.observe``: hidden cards are ``?``)."""
        return _positions().format_position(self.game, self.game.observe(state, seat))

    def parse_position(self, text: str) -> Any:
        """The position a :meth:`format_position` line writes (checked as a loaded position is:
        :class:`NotationError` naming the section and field that cannot be read)."""
        return _positions().parse_position(self.game, text)

    def _seat(self, t: str, state: Any) -> tuple[str | None, str]:
        m = re.match(r'("(?:[^"\\]|\\.)*"|[^\s:"]+)\s*:(?:\s+|\Z)(.*)\Z', t)
        if m:
            return self.r_player(m.group(1), state), m.group(2)
        if state is not None:
            for p in state.setup.players:
                if t.casefold().startswith(p.casefold() + ":"):
                    return p, t[len(p) + 1:].strip()
        return self.actor(state), t


def _whole(x: NotationError, player: str, body: str) -> NotationError:
    """``x`` (about one value of the text) with its candidates as whole texts: the text with the
    value replaced by each (``alice: draw Sky Lancer Captain`` for ``Captian``)."""
    part = x.text.strip()
    if not x.candidates or not part or part not in body or all(c.startswith(f"{player}: ") for c in x.candidates):
        return x
    texts = [f"{Notation.w_player(player)}: {body.replace(part, c, 1)}" for c in x.candidates]
    return NotationError(x.text, x.reason, texts)


# -- format: one function per event type ------------------------------------------------------

def _targets(n: Notation, hs: list[str]) -> str:
    return f" -> {n.w_handles(hs)}" if hs else ""


def _play(n: Notation, e: Any, s: Any) -> str:
    cards = n._cards(s)
    c = cards.pool.get(e.card) if cards is not None else None
    kind = "follower" if type(e) is E.FollowerPlayed else "action"
    plain = c is not None and c.type.startswith(kind)
    return f"play {'' if plain else kind + ' '}{n.w_card(e.card, s)}{_targets(n, e.targets)}"


def _ability(e: Any) -> str:
    return f" ability {e.ability}" if e.ability else ""


def _effect(n: Notation, e: E.EffectDeclared, s: Any) -> str:
    out = [f"effect {n.w_card(e.card, s)}"]
    if e.text:
        out.append(f"says {_quote(e.text)}")
    if e.destroy:
        out.append(f"destroy {n.w_handles(e.destroy)}")
    if e.damage:
        out.append("damage " + ", ".join(f"{n.w_handle(h)} {v}" for h, v in e.damage.items()))
    for key, words in (("switch_on", "switch on"), ("switch_off", "switch off"), ("return_to_hand", "return")):
        v = getattr(e, key)
        if v:
            out.append(f"{words} {n.w_handles(v)}")
    if e.draw:
        out.append(f"draw {e.draw}")
    if e.opponent_draw:
        out.append(f"opponent draws {e.opponent_draw}")
    return "; ".join(out)


def _attack(n: Notation, e: E.AttackDeclared, s: Any) -> str:
    head = f"attack {n.w_handle(e.attacker)} -> "
    if e.target == "follower" and e.follower is not None and e.slot is None and _HANDLE.match(e.follower):
        return head + e.follower
    if e.target == "locus" and e.follower is None:
        return head + ("locus" if e.slot is None else f"locus {e.slot}")
    out = head + e.target
    if e.slot is not None:
        out += f"; slot {e.slot}"
    if e.follower is not None:
        out += f"; follower {n.w_handle(e.follower)}"
    return out


def _battle(n: Notation, e: E.BattleResolved, s: Any) -> str:
    out = [f"battle {n.w_handle(e.attacker)} {e.result}"]
    if e.follower is not None:
        out.append(f"follower {n.w_handle(e.follower)}")
    for k in ("damage", "counter_damage", "capture"):
        if getattr(e, k):
            out.append(f"{k.split('_')[0]} {getattr(e, k)}")
    if e.slot is not None:
        out.append(f"slot {e.slot}")
    if e.card is not None:
        out.append(f"card {n.w_card(e.card, s)}")
    return "; ".join(out)


def _resolved(n: Notation, e: E.XPlayResolved, s: Any) -> str:
    return f"resolve {n.w_card(e.card, s)}" + ("" if e.follower is None else f" -> {n.w_handle(e.follower)}")


def _opened(n: Notation, e: E.CommitmentOpened, s: Any) -> str:
    c = e.commitment if looks_like(e.commitment) and " " not in e.commitment else _quote(e.commitment)
    salt = e.salt if _PLAIN.match(e.salt) else _quote(e.salt)
    return f"open {c} = {n.w_card(e.card, s)}; salt {salt}"


def _ended(n: Notation, e: E.GameEnded, s: Any) -> str:
    reason = _free(e.reason)
    if e.result == "win" and e.winner is not None:
        return f"game over: {n.w_player(e.winner)} wins ({reason})"
    if e.result == "draw" and e.winner is None:
        return f"game over: draw ({reason})"
    return f"game over: {e.result} {n.w_player(e.winner)} ({reason})"


def _started(n: Notation, e: E.MatchStarted, s: Any) -> str:
    """The set-up in words, one line that reads back (``start alice vs bob | alice: <colossus>;
    3 Grave Rat, ...``: :mod:`.setup_words`)."""
    return format_start(n, e)


_FORMAT: dict[type, Callable[[Notation, Any, Any], str]] = {
    E.DeckShuffled: lambda n, e, s: "shuffle",
    E.FirstPlayerDecided: lambda n, e, s: "goes first",
    E.CardDrawn: lambda n, e, s: f"draw {n.w_card(e.card, s)}",
    E.CardsReturned: lambda n, e, s: f"return {n.w_cards(e.cards, s)}",
    E.TurnStarted: lambda n, e, s: f"turn {e.turn}",
    E.CompleteDeclared: lambda n, e, s: f"declare {n.w_ints(e.slots)}",
    E.LocusRevealed: lambda n, e, s: f"reveal locus {n.w_ints(e.slots)} = {n.w_cards(e.cards, s)}",
    E.DeclarationDiscarded: lambda n, e, s: f"discard locus {n.w_ints(e.slots)}",
    E.CardSet: lambda n, e, s: f"set {n.w_card(e.card, s)} as {e.zone}",
    E.FollowerPlayed: _play,
    E.ActionPlayed: _play,
    E.FollowerAbilityActivated: lambda n, e, s: f"activate {n.w_handle(e.follower)}{_ability(e)}{_targets(n, e.targets)}",
    E.ColossusAbilityActivated: lambda n, e, s: f"activate colossus{_ability(e)}{_targets(n, e.targets)}",
    E.EffectDeclared: _effect,
    E.AttackDeclared: _attack,
    E.BlockDeclared: lambda n, e, s: f"block {n.w_handle(e.blocker)}",
    E.BlockDeclined: lambda n, e, s: "no block",
    E.XPlayPassed: lambda n, e, s: "pass",
    E.XPlayResolved: _resolved,
    E.BattleResolved: _battle,
    E.LocusFlipped: lambda n, e, s: f"flip locus {e.slot} = {n.w_card(e.card, s)}",
    E.CardsRevealed: lambda n, e, s: f"reveal {n.w_cards(e.cards, s)}",
    E.TopCardRevealed: lambda n, e, s: f"reveal top {n.w_card(e.card, s)}",
    E.CardMilled: lambda n, e, s: f"mill {n.w_card(e.card, s)}",
    E.GemsCaptured: lambda n, e, s: f"capture {n.w_cards(e.cards, s)}",
    E.LocusReplaced: lambda n, e, s: f"replace {n.w_card(e.card, s)}",
    E.FollowerDestroyed: lambda n, e, s: f"destroyed {n.w_handle(e.follower)} ({n.w_card(e.card, s)})",
    E.MainPhaseEnded: lambda n, e, s: "end",
    E.TurnEnded: lambda n, e, s: f"turn {e.turn} ends",
    E.Conceded: lambda n, e, s: "concede",
    E.CommitmentOpened: _opened,
    E.GameEnded: _ended,
    E.MatchStarted: _started,
}

#: the events written without ``<seat>:`` (they have no seat)
_SEATLESS = (E.GameEnded, E.MatchStarted)


# -- parse: per verb, the patterns of its events ------------------------------------------------

Parser = Callable[[Notation, str, "re.Match[str]", Any], Event]


def _card_req(n: Notation, text: str, s: Any) -> str:
    return n._need(n.r_card(text, s), text)


def _p_play(n: Notation, p: str, m: re.Match[str], s: Any) -> Event:
    kind, body = m.group(1), m.group(2)
    card_text, _, tg = _cut(body, " -> ")
    card = _card_req(n, card_text, s)
    targets = n.r_handles(tg, s) if tg else []
    if kind is None:
        cards = n._cards(s)
        c = cards.pool.get(card) if cards is not None else None
        if c is None or not (c.type.startswith("follower") or c.type.startswith("action")):
            raise NotationError(m.string, f"{card_text.strip()!r}: say which card kind is played",
                                [f"{p}: play follower {card_text}", f"{p}: play action {card_text}"])
        kind = "follower" if c.type.startswith("follower") else "action"
    cls = E.FollowerPlayed if kind.casefold() == "follower" else E.ActionPlayed
    return cls(player=p, card=card, targets=targets)


def _p_activate(n: Notation, p: str, m: re.Match[str], s: Any) -> Event:
    who, ab, tg = m.group(1), m.group(2), m.group(3)
    targets = n.r_handles(tg, s) if tg else []
    ability = n.r_int(ab) if ab else 0
    if who.casefold() == "colossus":
        return E.ColossusAbilityActivated(player=p, ability=ability, targets=targets)
    return E.FollowerAbilityActivated(player=p, follower=n._need(n.r_handle(who, s), who), ability=ability, targets=targets)


def _p_effect(n: Notation, p: str, m: re.Match[str], s: Any) -> Event:
    parts = _split(m.group(1), ";")
    kw: dict[str, Any] = {"card": _card_req(n, parts[0], s)}
    for part in parts[1:]:
        word, _, rest = part.partition(" ")
        low = part.casefold()
        if word.casefold() == "says":
            q = _unquote(rest.strip())
            kw["text"] = q if q is not None else rest.strip()
        elif word.casefold() == "destroy":
            kw["destroy"] = n.r_handles(rest, s)
        elif word.casefold() == "damage":
            dmg = {}
            for item in _split(rest):
                h, _, v = item.rpartition(" ")
                dmg[n._need(n.r_handle(h, s), h)] = n.r_int(v)
            kw["damage"] = dmg
        elif low.startswith("switch on "):
            kw["switch_on"] = n.r_handles(part[10:], s)
        elif low.startswith("switch off "):
            kw["switch_off"] = n.r_handles(part[11:], s)
        elif word.casefold() == "return":
            kw["return_to_hand"] = n.r_handles(rest, s)
        elif word.casefold() == "draw":
            kw["draw"] = n.r_int(rest)
        elif low.startswith("opponent draws "):
            kw["opponent_draw"] = n.r_int(part[15:])
        else:
            raise NotationError(m.string, f"{part!r}: an effect clause is says, destroy, damage, switch on, "
                                          "switch off, return, draw or opponent draws")
    return E.EffectDeclared(player=p, **kw)


def _p_attack(n: Notation, p: str, m: re.Match[str], s: Any) -> Event:
    attacker = n._need(n.r_handle(m.group(1), s), m.group(1))
    parts = _split(m.group(2), ";")
    head = parts[0].split()
    kw: dict[str, Any] = {}
    if head and head[0].casefold() in ("deck", "locus", "follower"):
        kw["target"] = head[0].casefold()
        if len(head) == 2 and kw["target"] == "locus":
            kw["slot"] = n.r_int(head[1])
        elif len(head) > 1:
            raise NotationError(m.string, f"{parts[0]!r}: the target is deck, locus <slot> or a follower")
    else:
        kw["target"] = "follower"
        kw["follower"] = n._need(n.r_handle(parts[0], s), parts[0])
    for part in parts[1:]:
        word, _, rest = part.partition(" ")
        if word.casefold() == "slot":
            kw["slot"] = n.r_int(rest)
        elif word.casefold() == "follower":
            kw["follower"] = n._need(n.r_handle(rest, s), rest)
        else:
            raise NotationError(m.string, f"{part!r}: after the target: slot <n> or follower <handle>")
    return E.AttackDeclared(player=p, attacker=attacker, **kw)


_RESULTS = ("fizzled", "defended", "follower-damaged", "deck-hit", "locus-hit")


def _p_battle(n: Notation, p: str, m: re.Match[str], s: Any) -> Event:
    parts = _split(m.group(2), ";")
    result = parts[0].casefold()
    if result not in _RESULTS:
        raise NotationError(m.string, f"{parts[0]!r}: a battle ends {', '.join(_RESULTS)}",
                            [f"{p}: battle {m.group(1)} {r}" for r in _RESULTS])
    kw: dict[str, Any] = {"attacker": n._need(n.r_handle(m.group(1), s), m.group(1)), "result": result}
    names = {"follower": "follower", "damage": "damage", "counter": "counter_damage", "capture": "capture",
             "slot": "slot", "card": "card"}
    for part in parts[1:]:
        word, _, rest = part.partition(" ")
        key = names.get(word.casefold())
        if key is None:
            raise NotationError(m.string, f"{part!r}: a battle clause is {', '.join(names)}")
        kw[key] = (n.r_handle(rest, s) if key == "follower" else n.r_card(rest, s) if key == "card"
                   else n.r_int(rest))
    return E.BattleResolved(player=p, **kw)


def _p_open(n: Notation, p: str, m: re.Match[str], s: Any) -> Event:
    c = _unquote(m.group(1))
    salt = _unquote(m.group(3))
    return E.CommitmentOpened(player=p, commitment=m.group(1) if c is None else c, card=_card_req(n, m.group(2), s),
                              salt=m.group(3) if salt is None else salt)


def _game_over(n: Notation, body: str) -> Event:
    m = re.fullmatch(r"(?:(.+?) wins|(draw|win)(?: (\S+))?) \((.*)\)", body, re.I)
    if not m:
        raise NotationError(body, "game over: <seat> wins (<reason>) or game over: draw (<reason>)")
    q = _unquote(m.group(4))
    reason = m.group(4) if q is None else q
    if m.group(1) is not None:
        return E.GameEnded(result="win", winner=n.r_player(m.group(1), None), reason=reason)
    w = m.group(3)
    return E.GameEnded(result=m.group(2).lower(), winner=None if w in (None, NONE) else n.r_player(w, None),  # type: ignore[arg-type]
                       reason=reason)


_LOOKED = re.compile(r"(\S+) looked at ([0-9]+) cards? of (\S+)'s (\S+)(?: \(slots? ([-0-9, ]+)\))?(?: \(([^)]*)\))?(?:: (.*))?\Z")
_REORDERED = re.compile(r"(\S+) put ([0-9]+) cards? of (\S+)'s (\S+) back in a new order(?: \(([^)]*)\))?(?:: (.*))?\Z")
_MOVED = re.compile(r"([0-9]+) cards? of (\S+)'s (\S+) moved to \S+'s (\S+)(?: by (\S+))?(?: \(slots? ([-0-9, ]+)\))?"
                    r"(?: \(([^)]*)\))?, seen by (no one|[^:]+?)(?:: (.*))?\Z")


def _private(n: Notation, t: str, s: Any) -> Event | None:
    """The core's private-information events as the core writes them
    (:func:`~adjudicator.core.kernel.events.describe_private`), read back structurally: an unknown card
    is ``?`` (a seat that did not see them is written the number of cards alone)."""
    from adjudicator.core.kernel.events import CardsLooked, CardsMoved, CardsReordered

    def cards(count: str, names: str | None) -> list[str | None]:
        if names is None:
            k = n.r_int(count)
            if not 0 <= k <= MAX_ITEMS:
                raise NotationError(t, f"{k} cards: at most {MAX_ITEMS}")
            return [HIDDEN] * k
        return [HIDDEN if c == HIDDEN else _card_req(n, c, s) for c in _split(names)]

    def slots(text: str | None) -> list[int] | None:
        return None if text is None else n.r_ints(text)

    m = _LOOKED.match(t)
    if m:
        return CardsLooked(player=n.r_player(m.group(1), s), owner=n.r_player(m.group(3), s), zone=m.group(4),
                           cards=cards(m.group(2), m.group(7)), slots=slots(m.group(5)), source=m.group(6))
    m = _REORDERED.match(t)
    if m:
        return CardsReordered(player=n.r_player(m.group(1), s), owner=n.r_player(m.group(3), s), zone=m.group(4),
                              cards=cards(m.group(2), m.group(6)), source=m.group(5))
    m = _MOVED.match(t)
    if m:
        seen = [] if m.group(8) == "no one" else [n.r_player(x, s) for x in _split(m.group(8))]
        return CardsMoved(owner=n.r_player(m.group(2), s), from_zone=m.group(3), to_zone=m.group(4),
                          cards=cards(m.group(1), m.group(9)), seen_by=seen,
                          player=None if m.group(5) is None else n.r_player(m.group(5), s),
                          slots=slots(m.group(6)), source=m.group(7))
    return None


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern + r"\Z", re.I)


def _simple(cls: type, **const: Any) -> Parser:
    return lambda n, p, m, s: cls(player=p, **const)


_PARSE: dict[str, list[tuple[re.Pattern[str], Parser]]] = {}


def _on(verb: str, pattern: str, fn: Parser) -> None:
    _PARSE.setdefault(verb, []).append((_rx(pattern), fn))


_on("shuffle", r"shuffle", _simple(E.DeckShuffled))
_on("goes", r"goes first", _simple(E.FirstPlayerDecided))
_on("first", r"first", _simple(E.FirstPlayerDecided))
_on("draw", r"draw (.+)", lambda n, p, m, s: E.CardDrawn(player=p, card=n.r_card(m.group(1), s)))
_on("return", r"return (.+)", lambda n, p, m, s: E.CardsReturned(player=p, cards=n.r_cards(m.group(1), s)))
_on("turn", r"turn (-?[0-9]+) ends", lambda n, p, m, s: E.TurnEnded(player=p, turn=n.r_int(m.group(1))))
_on("turn", r"turn (-?[0-9]+)", lambda n, p, m, s: E.TurnStarted(player=p, turn=n.r_int(m.group(1))))
_on("declare", r"declare(?: complete)? (.+)", lambda n, p, m, s: E.CompleteDeclared(player=p, slots=n.r_ints(m.group(1))))
_on("reveal", r"reveal locus (.+?) = (.+)",
    lambda n, p, m, s: E.LocusRevealed(player=p, slots=n.r_ints(m.group(1)), cards=n.r_cards(m.group(2), s)))
_on("reveal", r"reveal top (.+)", lambda n, p, m, s: E.TopCardRevealed(player=p, card=n.r_card(m.group(1), s)))
_on("reveal", r"reveal (.+)", lambda n, p, m, s: E.CardsRevealed(player=p, cards=n.r_cards(m.group(1), s)))
_on("discard", r"discard locus (.+)", lambda n, p, m, s: E.DeclarationDiscarded(player=p, slots=n.r_ints(m.group(1))))
_on("set", r"set (.+) as (?:an? )?(gem|locus)",
    lambda n, p, m, s: E.CardSet(player=p, card=n.r_card(m.group(1), s), zone=m.group(2).lower()))
_on("play", r"play (?:(follower|action) )?(.+)", _p_play)
_on("activate", r"activate (\S+)(?: ability (-?[0-9]+))?(?: -> (.+))?", _p_activate)
_on("effect", r"effect (.+)", _p_effect)
_on("attack", r"attack (\S+|\"(?:[^\"\\]|\\.)*\") -> (.+)", _p_attack)
_on("block", r"block (.+)", lambda n, p, m, s: E.BlockDeclared(player=p, blocker=_need_handle(n, m.group(1), s)))
_on("no", r"no block", _simple(E.BlockDeclined))
_on("pass", r"pass", _simple(E.XPlayPassed))
_on("p", r"p", _simple(E.XPlayPassed))
_on("resolve", r"resolve (.+?)(?: -> (\S+|\"(?:[^\"\\]|\\.)*\"))?",
    lambda n, p, m, s: E.XPlayResolved(player=p, card=_card_req(n, m.group(1), s),
                                       follower=None if m.group(2) is None else n.r_handle(m.group(2), s)))
_on("battle", r"battle (\S+|\"(?:[^\"\\]|\\.)*\") (.+)", _p_battle)
_on("flip", r"flip locus (-?[0-9]+) = (.+)",
    lambda n, p, m, s: E.LocusFlipped(player=p, slot=n.r_int(m.group(1)), card=n.r_card(m.group(2), s)))
_on("mill", r"mill (.+)", lambda n, p, m, s: E.CardMilled(player=p, card=n.r_card(m.group(1), s)))
_on("capture", r"capture (.+)",
    lambda n, p, m, s: E.GemsCaptured(player=p, cards=[n._need(c, m.group(1)) for c in n.r_cards(m.group(1), s)]))
_on("replace", r"replace (.+)", lambda n, p, m, s: E.LocusReplaced(player=p, card=n.r_card(m.group(1), s)))
_on("destroyed", r"destroyed (\S+|\"(?:[^\"\\]|\\.)*\") \((.+)\)",
    lambda n, p, m, s: E.FollowerDestroyed(player=p, follower=_need_handle(n, m.group(1), s), card=_card_req(n, m.group(2), s)))
_on("end", r"end(?: main)?", _simple(E.MainPhaseEnded))
_on("concede", r"concede", _simple(E.Conceded))
_on("open", r"open (\S+|\"(?:[^\"\\]|\\.)*\") = (.+); salt (.+)", _p_open)


def _need_handle(n: Notation, text: str, s: Any) -> str:
    return n._need(n.r_handle(text, s), text)


def _positions() -> Any:
    from . import position_line

    return position_line
