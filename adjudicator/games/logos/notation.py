"""The LOGOS notation: every event in a player's words, read back exactly (docs/games/logos.md,
"Notation"), and the position in one line (:mod:`.posline`).

An event is written in one of these forms (``P`` a player, ``C`` a card, by name where the
name reads back as that card alone, else by id; ``?`` an unknown card, ``null`` a card the log
leaves out; a word that could be misread is written as a JSON string, ``"on"``)::

    P: draw C                 P: backup C            P: pick C          P: call [C]
    P: commit HEX | ?         P: reveal C salt S     P: pass            P: resign
    P: deck rebuilt (N)       P: defenseless[, discards C, C]
    A attacks D (BASIS[, after effects])      deadlock[ (after effects)]
    effect P C FIELD: EFFECT on T, RESULT[, copied E][, value N][, cards [C, C]]
    A strikes D: ATTACK vs DEFENSE, damage N, hp N        (``counters`` for a counter-attack)
    end of round N[: COUNTER COLOUR [COLOUR...], ...]
    W wins (REASON)           draw (REASON)[, winner W]
    start <the set-up, as the position line writes it>

Parse is structural, not a lookup among legal events: an illegal event (a card that is not in
the slots, the wrong player) reads as that event, so ``verify`` can rule on it; only a text the
grammar cannot read is tried as an abbreviation of one legal event's text (``ann: draw iron``).
Names and ids are accepted alike, case aside.  A position is needed for card names (the match's pool) and
for ``P: commit C`` (the commitment to C with the example salt ``legal`` lists, ``r3-ann``);
without one a card is read as the id written.  ``P: commit C salt S`` is the commitment to C
with the salt S (a seat's own pick, typed as a card).
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from adjudicator.core.kernel.events import HIDDEN, Event
from adjudicator.core.kernel.notation import MAX_TEXT, Notation as BaseNotation, NotationError
from adjudicator.core.kernel.suggest import closest

from . import events as E
from . import posline, setup_words
from .commitments import commitment_of, example_salt

#: a token: a JSON string (a literal), a number with thousands separators, a mark, a word
_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(-?\d{1,3}(?:,\d{3})+(?!\d))|([:,()\[\]])|([^\s:,()\[\]"]+))')
_WORD = re.compile(r'[^\s:,()\[\]"]+')
#: words the grammar gives a meaning: a player, card or value spelled so is written quoted
RESERVED = frozenset({
    "?", "null", "none", "-", "attacks", "strikes", "counters", "wins", "draw", "deadlock", "effect",
    "end", "start", "salt", "on", "vs", "copied", "value", "cards", "winner", "discards",
})
_HEX64 = re.compile(r"[0-9a-f]{64}")


#: the actions a player's event starts with (``P: draw C``), for a did-you-mean
VERBS = ("draw", "backup", "pick", "commit", "reveal", "call", "pass", "resign", "deck", "defenseless")
#: the most events one entry (:meth:`Notation.parse_entry`) may hold
MAX_ENTRY = 64


class Tok(msgspec.Struct, frozen=True):
    text: str
    #: w: a word (a number too), q: a JSON string (a literal), p: a mark
    kind: str

    def word(self, *words: str) -> bool:
        return self.kind == "w" and self.text.casefold() in words

    def mark(self, m: str) -> bool:
        return self.kind == "p" and self.text == m


def tokens(text: str) -> list[Tok]:
    out: list[Tok] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise NotationError(text, f"cannot read {text[pos:pos + 20].strip()!r}")
        q, num, mark, word = m.groups()
        if q is not None:
            try:
                out.append(Tok(json.loads(q), "q"))
            except ValueError:
                raise NotationError(text, f"a bad quoted text {q[:40]!r}") from None
        elif num is not None:
            out.append(Tok(num.replace(",", ""), "w"))
        elif mark is not None:
            out.append(Tok(mark, "p"))
        else:
            out.append(Tok(word, "w"))
        pos = m.end()
    return out


def tok(value: str) -> str:
    """A value as one token: as it is when it reads back as itself, else a JSON string."""
    if _WORD.fullmatch(value) and value.casefold() not in RESERVED and value.isprintable() and value[0] != "{" \
            and ";" not in value:  # an entry's events are joined by ";" (parse_entry)
        return value
    # a control character (a terminal's escape included) is written as \uXXXX, never raw
    return json.dumps(value, ensure_ascii=not value.isprintable())


def num(n: int) -> str:
    return f"{n:,}"


class Notation(BaseNotation):
    """LOGOS events and positions in words (see the module)."""

    #: a value as one token (:func:`tok`), for the set-up's words (setup_words.py)
    word = staticmethod(tok)

    # -- cards ----------------------------------------------------------------------------------
    def _index(self, state: Any) -> tuple[dict[str, list[str]], dict[str, str]]:
        """(casefolded name or id -> ids, id -> name) of the match's pool, made once per pool."""
        from .values import pool_of

        return self.pool_index(pool_of(state))

    def pool_index(self, pool: Any) -> tuple[dict[str, list[str]], dict[str, str]]:
        """(casefolded name or id -> ids, id -> name) of ``pool`` (the loader's cached pool: the
        key of this cache)."""
        cache = self.__dict__.setdefault("_pools", {})
        got = cache.get(pool)
        if got is None:
            index: dict[str, list[str]] = {}
            names: dict[str, str] = {}
            for cid in sorted(pool.cards):
                names[cid] = pool.cards[cid].name
                index.setdefault(cid.casefold(), []).append(cid)
            for cid in sorted(pool.cards):
                n = " ".join(names[cid].split()).casefold()
                if cid not in index.get(n, []):
                    index.setdefault(n, []).append(cid)
            if len(cache) > 16:
                cache.clear()
            got = cache[pool] = (index, names)
        return got

    def card_text(self, state: Any, card: str | None) -> str:
        """``card`` by its name when the name reads back as that card alone, else by its id."""
        if card is None:
            return "null"
        if card == HIDDEN:
            return "?"
        if state is not None:
            index, names = self._index(state)
            name = names.get(card)
            if name and all(_WORD.fullmatch(w) for w in name.split()) and name.casefold() not in RESERVED \
                    and name.isprintable() and name[0] != "{" and ";" not in name \
                    and index.get(" ".join(name.split()).casefold()) == [card]:
                return " ".join(name.split())
        return tok(card)

    def read_card(self, text: str, state: Any, toks: list[Tok]) -> str | None:
        """The card ``toks`` name (a run of words, or one quoted id)."""
        if not toks:
            raise NotationError(text, "a card is missing")
        if len(toks) == 1 and toks[0].kind == "w" and toks[0].text in ("?", "null"):
            return HIDDEN if toks[0].text == "?" else None
        if any(t.kind == "p" for t in toks):
            raise NotationError(text, f"cannot read a card from {' '.join(t.text for t in toks)!r}")
        if len(toks) == 1 and toks[0].kind == "q":
            want = toks[0].text
            if state is None or want in self._index(state)[1]:
                return want
        want = " ".join(t.text for t in toks)
        if state is None:
            return want
        index, names = self._index(state)
        if want in names:
            return want
        hits = index.get(" ".join(want.split()).casefold(), [])
        if len(hits) == 1:
            return hits[0]
        if hits:
            raise NotationError(text, f"{want!r} names {len(hits)} cards", hits)
        near = closest(want, list(names.values()) + list(names))
        raise NotationError(text, f"no card {want!r} in pool {state.setup.pool!r}"
                            + (f"; did you mean {near!r}?" if near else ""), [near] if near else [])

    def read_cards(self, text: str, state: Any, toks: list[Tok]) -> list[str]:
        out: list[str] = []
        for part in _split(toks, ","):
            c = self.read_card(text, state, part)
            if c is None:
                raise NotationError(text, "null is no card of a list")
            out.append(c)
        return out

    def read_player(self, text: str, state: Any, t: Tok | None) -> str:
        if t is None or t.kind == "p" or (t.kind == "w" and t.text.casefold() in RESERVED):
            raise NotationError(text, "a player is missing" if t is None else f"{t.text!r} is no player")
        if state is None:
            return t.text
        players = list(state.setup.players)
        if t.text in players:
            return t.text
        hits = [p for p in players if p.casefold() == t.text.casefold()]
        if len(hits) == 1:
            return hits[0]
        raise NotationError(text, f"{t.text!r} is no player of this match", players)

    # -- format ---------------------------------------------------------------------------------
    def format(self, event: Event, state: Any = None) -> str:
        t = type(event)
        c = lambda x: self.card_text(state, x)  # noqa: E731
        said = {
            E.CardDrawn: lambda e: f"draw {c(e.card)}",
            E.BackupAssigned: lambda e: f"backup {c(e.card)}",
            E.CardPicked: lambda e: f"pick {c(e.card)}",
            E.CardCommitted: lambda e: f"commit {'?' if e.commitment == HIDDEN else tok(e.commitment)}",
            E.PickRevealed: lambda e: f"reveal {c(e.card)} salt {'?' if e.salt == HIDDEN else tok(e.salt)}",
            E.BackupCalled: lambda e: "call" + ("" if e.card is None else f" {c(e.card)}"),
            E.BackupPassed: lambda e: "pass",
            E.Resigned: lambda e: "resign",
            E.DeckRebuilt: lambda e: f"deck rebuilt ({e.count})",
            E.Defenseless: lambda e: "defenseless" + (f", discards {', '.join(map(c, e.cards))}" if e.cards else ""),
        }.get(t)
        if said is not None:
            return f"{tok(event.player)}: {said(event)}"  # type: ignore[attr-defined]
        if t is E.DirectionDetermined:
            after = ", after effects" if event.stage == "after-effects" else ""
            if event.attacker is None and event.defender is None and event.basis == "deadlock":
                return "deadlock" + (" (after effects)" if after else "")
            who = lambda p: "?" if p is None else tok(p)  # noqa: E731
            return f"{who(event.attacker)} attacks {who(event.defender)} ({event.basis}{after})"
        if t is E.EffectResolved:
            text = (f"effect {tok(event.player)} {c(event.card)} {event.field}: {tok(event.effect)} on {tok(event.target)}, "
                    f"{event.result}")
            if event.copied is not None:
                text += f", copied {tok(event.copied)}"
            if event.value is not None:
                text += f", value {num(event.value)}"
            if event.cards is not None:
                text += f", cards [{', '.join(map(c, event.cards))}]"
            return text
        if t is E.StrikeResolved:
            verb = "counters" if event.counter else "strikes"
            return (f"{tok(event.striker)} {verb} {tok(event.target)}: {num(event.attack)} vs {num(event.defense)}, "
                    f"damage {num(event.damage)}, hp {num(event.hp)}")
        if t is E.RoundEnded:
            pushes = [f"{tok(p.counter)} {' '.join(tok(x) for x in p.colours) or 'none'}" for p in event.pushed]
            return f"end of round {event.round}" + (f": {', '.join(pushes)}" if pushes else "")
        if t is E.GameEnded:
            if event.result == "win":
                return f"{'?' if event.winner is None else tok(event.winner)} wins ({tok(event.reason)})"
            return f"draw ({tok(event.reason)})" + ("" if event.winner is None else f", winner {tok(event.winner)}")
        if t is E.MatchStarted:
            return setup_words.format_start(self, event)
        return super().format(event, state)

    # -- parse ----------------------------------------------------------------------------------
    def parse(self, text: str, state: Any = None) -> Event:
        """The event ``text`` writes (any event of the grammar, legal or not); a text that is not
        LOGOS notation is left to the core's reading (JSON, the core events)."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        stripped = text.strip()
        if stripped.startswith("{"):
            return self.parse_json(stripped)
        if stripped[:6].casefold() == "start ":
            return setup_words.parse_start(self, stripped)
        toks = tokens(stripped)
        if not toks:
            raise NotationError(text, "an empty text is no event")
        try:
            ev = self._parse(text, toks, state)
        except NotationError as first:
            if state is None:
                raise
            try:  # an abbreviation of one legal event's text (``ann: draw iron``), as a recorder takes it
                return self.pick(text, [(self.format(e, state), e) for e in self.game.legal_events(state)])
            except NotationError as second:
                raise (second if second.candidates and not first.candidates else first) from None
        if ev is not None:
            return ev
        try:
            return super().parse(text, state)
        except NotationError:
            if len(toks) > 2 and toks[1].mark(":") and toks[2].kind == "w":  # a player's action mistyped
                near = closest(toks[2].text.casefold(), VERBS)
                raise NotationError(text, f"{toks[2].text!r} is no action of a LOGOS player ({', '.join(VERBS)})"
                                    + (f"; did you mean {near!r}?" if near else ""),
                                    [f"{tok(toks[0].text)}: {near}{text.split(toks[2].text, 1)[-1].rstrip()}"] if near else []) from None
            raise

    def parse_entry(self, text: str, state: Any = None) -> list[Event]:
        """One entry at the table: an event, or several of one kind a player writes at once,
        joined by ``;`` (``ann: draw Iron Golem; ann: draw ?``, ``ann: reveal Storm Coil salt s1;
        ben: reveal Quiet Index salt ?``).  Each is read in ``state``: the names, the players and
        the round an entry's events are read by do not change within an entry."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        if text.strip().startswith("{") or ";" not in text:
            return [self.parse(text, state)]
        parts = _entry_parts(text)
        if len(parts) > MAX_ENTRY:
            raise NotationError(text[:80], f"more than {MAX_ENTRY} events in one entry")
        return [self.parse(part, state) for part in parts]

    def _parse(self, text: str, toks: list[Tok], state: Any) -> Event | None:
        t0 = toks[0]
        t1 = toks[1] if len(toks) > 1 else None
        if t1 is not None and t1.mark(":") and len(toks) > 2 and toks[2].kind == "w":
            return self._actor(text, toks, state)
        if t1 is not None and t1.word("attacks"):
            return self._direction(text, toks, state)
        if t0.word("deadlock"):
            rest = toks[1:]
            if not rest:
                return E.DirectionDetermined(stage="before-effects", basis="deadlock")
            if len(rest) == 4 and rest[0].mark("(") and rest[1].word("after") and rest[2].word("effects") and rest[3].mark(")"):
                return E.DirectionDetermined(stage="after-effects", basis="deadlock")
            raise NotationError(text, "a deadlock reads 'deadlock' or 'deadlock (after effects)'")
        if t1 is not None and t1.word("strikes", "counters"):
            return self._strike(text, toks, state)
        if t0.word("effect") and t1 is not None:
            return self._effect(text, toks, state)
        if t0.word("end") and t1 is not None and t1.word("of"):
            return self._round(text, toks, state)
        if (t1 is not None and t1.word("wins")) or t0.word("draw"):
            return self._ended(text, toks, state)
        return None

    def _actor(self, text: str, toks: list[Tok], state: Any) -> Event | None:
        player = self.read_player(text, state, toks[0])
        verb = toks[2].text.casefold()
        rest = toks[3:]
        if verb in ("draw", "backup", "pick"):
            card = self.read_card(text, state, rest)
            cls = {"draw": E.CardDrawn, "backup": E.BackupAssigned, "pick": E.CardPicked}[verb]
            return cls(player=player, card=card)
        if verb == "commit":
            return E.CardCommitted(player=player, commitment=self._commitment(text, state, player, rest))
        if verb == "reveal":
            if len(rest) < 3 or not rest[-2].word("salt") or rest[-1].kind == "p":
                raise NotationError(text, "a reveal reads 'P: reveal CARD salt SALT'")
            card = self.read_card(text, state, rest[:-2])
            if card is None:
                raise NotationError(text, "a revealed card is named")
            return E.PickRevealed(player=player, card=card, salt=rest[-1].text)
        if verb == "call":
            return E.BackupCalled(player=player, card=self.read_card(text, state, rest) if rest else None)
        if verb in ("pass", "resign"):
            if rest:
                raise NotationError(text, f"'{verb}' takes nothing after it")
            return E.BackupPassed(player=player) if verb == "pass" else E.Resigned(player=player)
        if verb == "deck":
            if len(rest) == 4 and rest[0].word("rebuilt") and rest[1].mark("(") and rest[3].mark(")"):
                return E.DeckRebuilt(player=player, count=_int(text, rest[2]))
            raise NotationError(text, "a rebuilt deck reads 'P: deck rebuilt (N)'")
        if verb == "defenseless":
            if not rest:
                return E.Defenseless(player=player)
            if len(rest) >= 3 and rest[0].mark(",") and rest[1].word("discards"):
                return E.Defenseless(player=player, cards=self.read_cards(text, state, rest[2:]))
            raise NotationError(text, "a defenseless player reads 'P: defenseless[, discards CARD, ...]'")
        return None

    def _commitment(self, text: str, state: Any, player: str, rest: list[Tok]) -> str:
        if len(rest) == 1 and (rest[0].kind == "q" or rest[0].text == HIDDEN or _HEX64.fullmatch(rest[0].text)):
            return rest[0].text
        if len(rest) >= 3 and rest[-2].word("salt") and rest[-1].kind != "p":
            card = self.read_card(text, state, rest[:-2])
            return commitment_of(str(card), rest[-1].text)
        if state is None:
            if len(rest) == 1:
                return rest[0].text
            raise NotationError(text, "a commitment to a card by name needs the position (its round)")
        card = self.read_card(text, state, rest)
        return commitment_of(str(card), example_salt(state.round, player))

    def _direction(self, text: str, toks: list[Tok], state: Any) -> Event:
        who = lambda t: None if t.word("?") else self.read_player(text, state, t)  # noqa: E731
        if len(toks) < 6 or not toks[3].mark("(") or not toks[-1].mark(")"):
            raise NotationError(text, "a direction reads 'A attacks D (BASIS[, after effects])'")
        inner = toks[4:-1]
        stage = "before-effects"
        if len(inner) == 4 and inner[1].mark(",") and inner[2].word("after") and inner[3].word("effects"):
            stage, inner = "after-effects", inner[:1]
        if len(inner) != 1 or inner[0].text not in ("class", "speed", "deadlock", "defenseless"):
            raise NotationError(text, "the basis of a direction is class, speed, deadlock or defenseless")
        return E.DirectionDetermined(stage=stage, basis=inner[0].text, attacker=who(toks[0]), defender=who(toks[2]))  # type: ignore[arg-type]

    def _effect(self, text: str, toks: list[Tok], state: Any) -> Event:
        shape = "an effect reads 'effect P CARD left|right: EFFECT on T, RESULT[, copied E][, value N][, cards [C, ...]]'"
        colon = next((i for i, t in enumerate(toks) if t.mark(":")), None)
        if colon is None or colon < 4 or not toks[colon - 1].word("left", "right"):
            raise NotationError(text, shape)
        player = self.read_player(text, state, toks[1])
        card = self.read_card(text, state, toks[2:colon - 1])
        parts = _split(toks[colon + 1:], ",", brackets=True)
        if len(parts) < 2 or len(parts[0]) != 3 or not parts[0][1].word("on") or len(parts[1]) != 1:
            raise NotationError(text, shape)
        fields: dict[str, Any] = {}
        for part in parts[2:]:
            key = part[0].text.casefold() if part and part[0].kind == "w" else ""
            if key in fields or key not in ("copied", "value", "cards"):
                raise NotationError(text, shape)
            if key == "copied" and len(part) == 2:
                fields[key] = part[1].text
            elif key == "value" and len(part) == 2:
                fields[key] = _int(text, part[1])
            elif key == "cards" and len(part) >= 3 and part[1].mark("[") and part[-1].mark("]"):
                fields[key] = self.read_cards(text, state, part[2:-1]) if len(part) > 3 else []
            else:
                raise NotationError(text, shape)
        if card is None:
            raise NotationError(text, "the card of an effect is named")
        try:
            return msgspec.convert({"player": player, "card": card, "field": toks[colon - 1].text.casefold(),
                                    "effect": parts[0][0].text, "target": self.read_player(text, state, parts[0][2]),
                                    "result": parts[1][0].text, **fields}, E.EffectResolved)
        except msgspec.ValidationError as exc:
            raise NotationError(text, f"{shape}: {exc}") from None

    def _strike(self, text: str, toks: list[Tok], state: Any) -> Event:
        shape = "a strike reads 'A strikes D: ATTACK vs DEFENSE, damage N, hp N' ('counters' for a counter-attack)"
        if len(toks) != 13 or not toks[3].mark(":") or not toks[5].word("vs") or not toks[7].mark(",") \
                or not toks[8].word("damage") or not toks[10].mark(",") or not toks[11].word("hp"):
            raise NotationError(text, shape)
        return E.StrikeResolved(striker=self.read_player(text, state, toks[0]), target=self.read_player(text, state, toks[2]),
                                attack=_int(text, toks[4]), defense=_int(text, toks[6]), damage=_int(text, toks[9]),
                                hp=_int(text, toks[12]), counter=toks[1].word("counters"))

    def _round(self, text: str, toks: list[Tok], state: Any) -> Event:
        shape = "the end of a round reads 'end of round N[: COUNTER COLOUR ..., ...]'"
        if len(toks) < 4 or not toks[2].word("round"):
            raise NotationError(text, shape)
        rnd = _int(text, toks[3])
        if len(toks) == 4:
            return E.RoundEnded(round=rnd)
        if not toks[4].mark(":"):
            raise NotationError(text, shape)
        pushed = []
        for part in _split(toks[5:], ","):
            if len(part) < 2 or any(t.kind == "p" for t in part):
                raise NotationError(text, shape)
            counter = part[0].text if part[0].kind == "q" or part[0].word("shared") else self.read_player(text, state, part[0])
            colours = [] if len(part) == 2 and part[1].word("none") else [t.text for t in part[1:]]
            pushed.append(E.ComboPush(counter=counter, colours=colours))
        return E.RoundEnded(round=rnd, pushed=pushed)

    def _ended(self, text: str, toks: list[Tok], state: Any) -> Event:
        shape = "the end of the match reads 'W wins (REASON)' or 'draw (REASON)[, winner W]'"
        win = len(toks) > 1 and toks[1].word("wins")
        head = toks[2:] if win else toks[1:]
        if len(head) < 3 or not head[0].mark("(") or not head[2].mark(")"):
            raise NotationError(text, shape)
        reason = head[1].text
        winner = None
        if win:
            winner = None if toks[0].word("?") else self.read_player(text, state, toks[0])
            if len(head) != 3:
                raise NotationError(text, shape)
        elif len(head) != 3:
            if len(head) != 6 or not head[3].mark(",") or not head[4].word("winner"):
                raise NotationError(text, shape)
            winner = self.read_player(text, state, head[5])
        return E.GameEnded(result="win" if win else "draw", winner=winner, reason=reason)

    # -- set-ups: deck lists (setup_words.py) ----------------------------------------------------
    def deck_lines(self, setup: Any, player: str) -> list[str] | None:
        """``player``'s deck as a deck list in names (``3 Iron Golem``): the text form's deck section."""
        return setup_words.deck_lines(self, setup, player)

    def read_deck(self, setup: Any, player: str, lines: list[str]) -> Any:
        """The deck (card id -> copies) a deck section's ``lines`` write (names or ids, did-you-mean)."""
        return setup_words.read_deck(self, setup, player, lines)

    # -- positions (posline.py) ---------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        view = state if seat is None else self.game.observe(state, seat)
        return posline.format_position(view, self.game, seat)

    def parse_position(self, text: str) -> Any:
        return posline.parse_position(text, self.game)


def _int(text: str, t: Tok) -> int:
    if t.kind != "w" or not re.fullmatch(r"-?\d{1,30}", t.text):
        raise NotationError(text, f"{t.text!r} is not a whole number")
    return int(t.text)


def _entry_parts(text: str) -> list[str]:
    """``text`` cut at each ``;`` outside a quoted text."""
    parts, start, quoted, escaped = [], 0, False, False
    for i, ch in enumerate(text):
        if quoted:
            escaped, quoted = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            quoted = True
        elif ch == ";":
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p for p in parts if p.strip()]


def _split(toks: list[Tok], mark: str, brackets: bool = False) -> list[list[Tok]]:
    """``toks`` cut at ``mark`` (outside square brackets when ``brackets``)."""
    parts: list[list[Tok]] = [[]]
    depth = 0
    for t in toks:
        if brackets and t.mark("["):
            depth += 1
        elif brackets and t.mark("]"):
            depth -= 1
        if t.mark(mark) and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts
