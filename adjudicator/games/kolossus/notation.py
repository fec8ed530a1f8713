"""The Kolossus notation: every event in a player's words, as short as SAN, read back exactly.

One event a line, the acting warband first (``tuatha: ...``); the grammar of each event, with an
example, is in docs/games/kolossus.md ("Notation").  In short::

    tuatha: Warrior b9-c10-d11            a move: the class on its first square, the path
    krell: Guardian i10 2S 3W             the direction form (start, direction and steps)
    tuatha: Colossus c11-c10-c9 sword     a move that uses the Sword of Storm / Whip of Wrath
    tuatha: activate Guardian [d4]        an activation (the square with choose_after_roll off)
    tuatha: destiny 4 / roll 2 2 3 / quake 3   the dice
    tuatha: place C a9, G b9 c11, W a10 b10 c10 a11 b11
    tuatha: skills attack C1 defence W2 C1 / mana attack W1 pool 1 weapon 2 / mana -
    tuatha: shift row-6 W 2 / earthquake column-d N / rebirth Warrior a10 / spear d5 / hammer d5 e6
    tuatha: initiative / end
    round 2, krell first, 2 crystals / tuatha: turn (round 2) / tuatha: takes 2 crystals
    tuatha: Colossus f6 beaten by krell / over: win ann+cat (tuatha+ishtari) by crystal-majority
    start chapter-3 T=ann@NW,K=ben@NE,I=cat@SE,F=dan@SW seed=13 rng=python-random

:meth:`Notation.parse` is structural: it reads any event of the grammar, legal or not (a
scorekeeper's illegal entry must reach ``verify``).  Warbands are read by id, name (``Tua'tha``)
or letter (``T``), or by the player commanding them (with a position); classes by name or
letter; case is folded.  Without a ``warband:`` prefix the event is the position's current
warband's.  The position is needed only to name the warband of an unprefixed text or of a
player, and to check the class a move names; every other text reads alone.  An event the grammar
cannot write plainly (a square with a space, a dict key that is not a class) is written as its
JSON object, which every game's notation reads.

:meth:`Notation.parse_entry` reads one entry at the table: parts separated by ``;``, each read
in the position the ones before it leave, and the compound activation ``Guardian 2+4
b9-c10-d11`` (declared, rolled, moved; the dice may be left out where the match's die generator
fixes them).  The position line (FEN's idea) is :mod:`.position_line`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from adjudicator.core.kernel.events import Event, bare
from adjudicator.core.kernel.notation import MAX_TEXT, Notation as BaseNotation, NotationError

from . import events as E
from .basics import board_of
from .notation_read import Reader, dice_of, read_actorless, read_body, words_of
from .notation_words import CLASS_NAME, CLASS_OF, MAX_PARTS, SQUARE, WARBAND_WORDS, event_text, move_words, piece_at
from .position_line import format_position, parse_position
from .state import WARBANDS

#: the most compound entries offered in one position (each a Choice of the recorder's list)
MAX_COMPOUNDS = 20_000

# == the notation ===========================================================================================

class Notation(BaseNotation):
    """The Kolossus notation (the module says the grammar)."""

    def format(self, event: Event, state: Any = None) -> str:
        """``event`` in the table's words; ``state`` (the position it happens in) names the class
        of the miniature a move starts from (``move`` without it)."""
        if type(event) not in E.EVENT_TYPES:
            return super().format(event, state)
        return event_text(event, state)

    def parse(self, text: str, state: Any = None) -> Event:
        """The event ``text`` writes, legal or not.  ``state`` is needed only for a text without
        a ``warband:`` (the current warband's) or with a player's name, and checks the class a
        move names against the miniature on its first square.  A text the grammar does not read
        goes to the core's notation (a judge's ruling, JSON, a few words of one legal event);
        when that reads none either, the grammar's error stands."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        stripped = text.strip()
        if stripped.startswith("{"):
            return self.parse_json(stripped)
        try:
            return self.read(text, stripped, state)
        except NotationError as exc:
            try:
                return super().parse(text, state)
            except NotationError:
                raise exc from None

    def read(self, text: str, stripped: str, state: Any) -> Event:
        """``text`` in the grammar (the module's)."""
        if not stripped:
            raise NotationError(text, "an empty text writes no event")
        m = re.match(r"^([^\s:]+)\s*:\s*(.*)$", stripped, re.S)
        head = stripped.split(None, 1)[0].casefold()
        if head in ("round", "start") or (m is not None and m.group(1).casefold() == "over"):
            if head == "start":
                return read_actorless(text, stripped.split())
            over = m is not None and m.group(1).casefold() == "over"
            return read_actorless(text, ["over", *words_of(m.group(2))] if over and m is not None else words_of(stripped))
        if m is not None:
            wb, body = self.actor(m.group(1), state, text), m.group(2)
        else:
            if state is None or not getattr(state, "warbands", None):
                raise NotationError(text, f"{stripped!r}: name the warband (tuatha: {stripped}); without a "
                                    f"position the text says whose event it is", [f"{w}: {stripped}" for w in WARBANDS])
            wb, body = state.current.id, stripped
        return read_body(Reader(text, words_of(body)), wb, state)

    def actor(self, word: str, state: Any, text: str) -> str:
        """The warband a ``who:`` prefix names: a warband's id, name or letter, or a player
        commanding one (the one whose turn it is, of two)."""
        found = WARBAND_WORDS.get(word.casefold())
        if found is not None or word == "?":
            return found or word
        seats = [] if state is None else [w for w in state.warbands if w.player.casefold() == word.casefold()]
        if len(seats) == 1:
            return seats[0].id
        if len(seats) > 1:
            now = state.current
            if now in seats:
                return now.id
            raise NotationError(text, f"{word} commands {' and '.join(w.id for w in seats)}: name the warband",
                                [text.replace(word, w.id, 1) for w in seats])
        from adjudicator.core.kernel.suggest import closest

        near = closest(word.casefold(), WARBAND_WORDS)
        raise NotationError(text, f"{word!r} is no warband{'' if state is None else ' nor player'} of this match"
                            + (f" (did you mean {WARBAND_WORDS[near]}?)" if near else ""),
                            [text.replace(word, WARBAND_WORDS[near], 1)] if near else list(WARBANDS))

    # -- entries ----------------------------------------------------------------------------------------
    def parse_entry(self, text: str, state: Any = None) -> list[Event]:
        """The events of one entry: parts separated by ``;``, each read in the position the ones
        before leave (the derived events settled by the engine), and the compound activation
        ``[warband:] Class [dice] path [weapon]`` (ActivationDeclared, MovementRolled,
        MiniatureMoved; from a ``roll`` step the roll and the move).  A die the entry leaves out is
        filled in only where the match's die generator fixes it (``destiny``, ``quake``, and the
        dice of a compound); else the entry stops before it, for the recorder to ask (with a path
        after it: a :class:`NotationError`).  An illegal event ends the entry (a
        :class:`NotationError` when parts follow it).  Needs the position."""
        if len(text) > MAX_TEXT:
            raise NotationError(text[:80], f"longer than {MAX_TEXT} characters")
        parts = [p.strip() for p in re.split(r"[;\n]", text) if p.strip()]
        if len(parts) > MAX_PARTS:
            raise NotationError(text[:80], f"{len(parts)} parts in one entry; at most {MAX_PARTS}")
        if state is None:
            if len(parts) != 1:
                raise NotationError(text, "an entry of several events is read in a position")
            return [self.parse(parts[0])]
        from adjudicator.core.kernel.verify import settle

        game = self.game
        s, _ = settle(game, state)
        out: list[Event] = []
        todo = [(p, p) for p in parts]  # (a part, the part as typed: a compound's own text)
        while todo:
            part, typed = todo.pop(0)
            expanded = self.expand(part, s)
            if expanded is not None:
                todo[:0] = [(x, part) for x in expanded]
                continue
            e = self.fill(part, s)
            if e is None:  # a die for the recorder to ask
                if todo:
                    raise NotationError(text, f"{typed!r}: the dice are not given and the match's die generator does "
                                        f"not fix them; write them after the class (Warrior 3 b9-c10, Guardian 2+4 ...)")
                return out
            out.append(e)
            ruling = game.check(s, e)
            if ruling.verdict != "legal":
                if todo:
                    raise NotationError(text, f"{self.format(e, s)!r} is {ruling.verdict} ({ruling.rule}: "
                                        f"{ruling.message}); the rest of the entry is not read")
                return out
            s, _ = settle(game, game.apply(s, e))
        return out

    def expand(self, part: str, s: Any) -> list[str] | None:
        """A compound activation as its parts (None: ``part`` is one event)."""
        m = re.match(r"^(?:([^\s:]+)\s*:\s*)?(.*)$", part, re.S)
        assert m is not None
        prefix, body = m.group(1), m.group(2)
        words = words_of(body)
        if not words or words[0].casefold() not in CLASS_OF or s.step not in ("act", "roll") \
                or "beaten" in [w.casefold() for w in words]:
            return None
        wb = self.actor(prefix, s, part) if prefix else s.current.id
        r = Reader(part, words)
        c = r.cls()
        dice = dice_of(r)
        rest = words[r.i:]
        out: list[str] = []
        if s.step == "act":
            square = None
            if rest and not s.options.choose_after_roll:
                square = rest[0].split("-")[0].casefold()
            out.append(event_text(E.ActivationDeclared(warband=wb, character=c, square=square)))  # type: ignore[arg-type]
        out.append(f"{wb}: roll " + " ".join(map(str, dice)) if dice else f"{wb}: roll")
        if rest:
            out.append(f"{wb}: {CLASS_NAME[c]} {' '.join(rest)}")
        return out

    def fill(self, part: str, s: Any) -> Event | None:
        """``part`` as one event; a die left out (``roll``, ``destiny``, ``quake``) is the one
        the match's die generator fixes (None: it fixes none)."""
        words = words_of(part.split(":", 1)[-1]) if ":" in part else words_of(part)
        if len(words) == 1 and words[0].casefold() in ("roll", "destiny", "quake"):
            want = {"roll": E.MovementRolled, "destiny": E.DestinyRolled, "quake": E.QuakeRolled}[words[0].casefold()]
            fixed = [e for e in self.game.legal_events(s) if type(e) is want] if s.setup.rng is not None else []
            return fixed[0] if len(fixed) == 1 else None
        return self.parse(part, s)

    def format_entries(self, events: list[Event], state: Any) -> str:
        """``events`` (decisions and dice of one warband, in the order played from ``state``) as
        one entry :meth:`parse_entry` reads back: activations compounded, dice the match's die
        generator fixes left out, parts joined by ``;``.  From an event the rules refuse on, the
        events are written one by one in the last position known (such an entry reads back only
        up to that event, as :meth:`parse_entry` says)."""
        parts: list[str] = []
        s: Any = self.advance(state, [])
        i = 0
        while i < len(events):
            e = events[i]
            trio = events[i:i + 3]
            after = None
            if s is not None and type(e) is E.ActivationDeclared and len(trio) == 3 and type(trio[1]) is E.MovementRolled \
                    and type(trio[2]) is E.MiniatureMoved and self.compounds(s, trio):
                after = self.advance(s, trio)
            if after is not None:
                mv: Any = trio[2]
                dice = "" if s.setup.rng is not None else "+".join(map(str, trio[1].dice)) + " "  # type: ignore[attr-defined]
                parts.append(f"{e.warband}: {CLASS_NAME[e.character]} {dice}{move_words(mv, None).split(' ', 1)[1]}")  # type: ignore[attr-defined]
                s, i = after, i + 3
                continue
            after = self.advance(s, [e]) if s is not None else None
            if after is not None and type(e) in (E.DestinyRolled, E.QuakeRolled) and s.setup.rng is not None:
                parts.append(f"{e.warband}: {'destiny' if type(e) is E.DestinyRolled else 'quake'}")  # type: ignore[attr-defined]
            else:
                parts.append(self.format(e, s))
            s = after if after is not None else None if s is None else s
            if after is None:  # (refused: the rest in words, in the last position known)
                parts += [self.format(x, s) for x in events[i + 1:]]
                break
            i += 1
        whole = "; ".join(parts)
        first = getattr(events[0], "warband", None) if events else None
        if len(parts) < 2 or not isinstance(first, str):
            return whole
        # the parts after the first without ``warband:`` (the current warband's, as parse_entry
        # reads them), where that reads back the same
        short = "; ".join(parts[:1] + [p.removeprefix(f"{first}: ") for p in parts[1:]])
        try:
            return short if self.parse_entry(short, state) == [bare(x) for x in events] else whole
        except NotationError:
            return whole

    def continues(self, state: Any, events: Sequence[Event], after: Any) -> bool:
        """Whether the recorder's entry of ``events`` (entered from ``state``; ``after``, the
        position they leave) goes on with the next pick, so that an entry says what the table saw
        with what the player chose, as a turn is played: a die the players rolled themselves (no
        die generator: the die of destiny; a Great Quake roll) with the same warband's decision it
        feeds, Initiative (the die read one more) too; an activation (picked, or filled in as the
        only choice) with its dice and its move; and a turn's end (or the move or shift that ends
        it) with the allocation of the mana it gained.  Such an
        entry is one :meth:`format_entries` writes and :meth:`parse_entry` reads back
        (``tuatha: destiny 3; Warrior 2 b9-c10``, ``Warrior 4 c10-d9; end; mana attack W1``)."""
        last = next((e for e in reversed(events) if e.kind != "X"), None)
        wb = getattr(last, "warband", None)
        if wb is None or not getattr(after, "warbands", None) or after.step in ("game-end", "over") \
                or after.current.id != wb:
            return False
        if type(last) in (E.DestinyRolled, E.QuakeRolled):  # (the generator's die: filled in, ending the entry before)
            return after.setup.rng is None and after.step in ("act", "quake-shift")
        if type(last) is E.InitiativeUsed:
            return after.step == "act"
        return after.step in ("allocate", "roll", "move")  # (the mana; an activation's dice; its move)

    def chains(self, state: Any, events: Sequence[Event], after: Any) -> bool:
        """Whether a scorekeeper chains an entry of ``events`` (entered from ``state``, leaving
        ``after``) with the next (the recorder's ``+``, "and then"; the chaining model of
        benchmarks/keystrokes.py): an activation (declared; rolled and moved in the same pick)
        after which the same warband may still declare another, its activation points allowing
        it, so two activations (or all of a turn's) make one entry."""
        declared = next((e for e in events if type(e) is E.ActivationDeclared), None)
        if declared is None or not getattr(after, "warbands", None) or after.step != "act" \
                or after.current.id != declared.warband:
            return False
        return any(type(e) is E.ActivationDeclared for e in self.game.legal_events(after))

    def compound_entries(self, state: Any, events: Any) -> list[tuple[str, list[Event]]]:
        """Each activation of ``events`` with a roll and one move after it (every path: the
        movement points left differ), as the one entry that :meth:`parse_entry` reads back:
        ``Warrior c11-d11-e11`` where the match's die generator fixes the roll, else each roll
        that can come (``Guardian 2+4 b9-c10``): a warband's turn in a few picks.  An
        activation whose compounds would pass :data:`MAX_COMPOUNDS` in all is left to its
        parts (declared, rolled, moved: each asked)."""
        s = self.advance(state, [])
        if s is None or s.step != "act":
            return []
        fixed = s.setup.rng is not None
        out: list[tuple[str, list[Event]]] = []
        for a in events:
            after = self.advance(s, [a]) if type(a) is E.ActivationDeclared else None
            rolls = [e for e in self.game.legal_events(after) if type(e) is E.MovementRolled] if after is not None else []
            if fixed and len(rolls) != 1:
                continue
            mine: list[tuple[str, list[Event]]] = []
            for r in rolls:
                moved = self.advance(after, [r])
                dice = "" if fixed else "+".join(map(str, r.dice)) + " "
                for m in self.game.legal_events(moved) if moved is not None else ():
                    if type(m) is E.MiniatureMoved and self.compounds(s, [a, r, m]):
                        mine.append((f"{a.warband}: {CLASS_NAME[a.character]} {dice}{move_words(m, None).split(' ', 1)[1]}",
                                     [a, r, m]))
                if len(out) + len(mine) > MAX_COMPOUNDS:
                    break
            if len(out) + len(mine) <= MAX_COMPOUNDS:
                out += mine
        return out

    def advance(self, state: Any, events: list[Event]) -> Any:
        """The settled position after ``events`` from ``state``, each checked (None: one is refused)."""
        from adjudicator.core.kernel.verify import settle

        game = self.game
        s, _ = settle(game, state)
        for e in events:
            if game.check(s, e).verdict != "legal":
                return None
            s, _ = settle(game, game.apply(s, e))
        return s

    def compounds(self, s: Any, trio: list[Any]) -> bool:
        """Whether declaration, roll and move read back from one compound text."""
        a, roll, mv = trio
        if not mv.path or mv.start is not None or any(not isinstance(q, str) or not SQUARE.match(q) for q in mv.path):
            return False
        if len({a.warband, roll.warband, mv.warband}) != 1 or not roll.dice or a.character not in CLASS_NAME:
            return False
        if mv.weapon not in (None, "sword", "whip"):
            return False
        want_square = None if s.options.choose_after_roll else mv.path[0]
        p = piece_at(s, mv.path[0])
        return a.square == want_square and (p is None or p.character == a.character) and s.step == "act"

    # -- narrowing (a square tapped on the board) ---------------------------------------------------------
    def narrow(self, state: Any, square: str, *more: str) -> list[Event]:
        """The legal events of ``state`` that touch ``square`` (and every square of ``more``): a
        move through or onto it, a placement or rebirth on it, a weapon's target, a Great Quake or
        Earthquake sliding its row or column.  A square may carry a class (``C a9``,
        ``Guardian b9``): then only the events that put or name that class there (a placement's
        Colossus on a9).  A board tapped square by square narrows the choices: a miniature's
        square (its activation, its moves), then where it goes; a placement, class by class."""
        taps = []
        for tap in (square, *more):
            words = tap.split()
            cls = CLASS_OF.get(words[0].casefold()) if len(words) == 2 else None
            if len(words) == 2 and cls is None:
                raise NotationError(tap, f"{tap!r}: a square, or a class and a square (C a9)", [])
            taps.append((words[-1].casefold(), cls))
        out = []
        for e in self.game.legal_events(state):
            marks = set(touched(e, state))
            if all((q, c) in marks if c else any(m[0] == q for m in marks) for q, c in taps):
                out.append(e)
        return out

    # -- positions ----------------------------------------------------------------------------------------
    def format_position(self, state: Any, seat: str | None = None) -> str:
        """The position in one line (:mod:`.position_line`): with ``seat``, what that player sees
        (Kolossus hides nothing: the same line)."""
        return format_position(self.game.observe(state, seat) if seat is not None else state)

    def parse_position(self, text: str) -> Any:
        return parse_position(self.game, text)


def touched(e: Any, state: Any) -> Iterator[tuple[str, str | None]]:
    """The squares an event names in ``state``, each with the class it puts, moves or names there
    (None: none said): a move's path (its first square with the class of the miniature there), a
    placement's squares, a target; the miniatures an activation may take; a slide's row or column."""
    cls = getattr(e, "character", None)
    t = type(e)
    for f in ("square", "start"):
        v = getattr(e, f, None)
        if isinstance(v, str):
            yield v, cls
    if t is E.MiniaturesPlaced:
        yield e.colossus, "colossus"
        yield from ((q, "guardian") for q in e.guardians)
        yield from ((q, "warrior") for q in e.warriors)
    if t is E.MiniatureMoved and (e.path or e.start):
        p = piece_at(state, e.path[0] if e.path else e.start)
        if p is not None:
            yield p.square, p.character
    if t is E.ActivationDeclared and e.square is None:
        yield from ((p.square, p.character) for p in state.pieces
                    if p.warband == e.warband and p.character == e.character and not p.activated)
    for f in ("path", "targets"):
        yield from ((q, None) for q in getattr(e, f, None) or ())
    region = getattr(e, "region", None)
    if isinstance(region, str):
        b = board_of(state)
        yield from ((b.names[i], None) for i in b.regions.get(region, ()))
