"""The terminal recorder's keys (issue 30): every listed choice is one key, recorded as it is
pressed, so a match is kept with one thumb.

The choices of the position (and the game's compound entries: a whole Kolossus activation with
its move) get the keys ``1``-``9``, then ``a``-``z`` without ``u``: 34 keys.  A longer list is
folded, as a person reads it: the choices are grouped by the first word in which they differ
(``attack F1 ▸``, the Colossus, the first square of a path, the drawn card), the smallest groups
shown whole while the keys last; a group is opened by its key, and its members get the keys
again (first the piece or card, then the target, each one key).  Where the words differ too
much to group (47 cards to draw), the first 33 have a key each and the last key opens the rest.
``0`` opens the match-ending entries (a resignation: then ``y``); Escape or Backspace closes an
open group; a pick the game's notation says an entry goes on from (``notation.continues``: a
Kolossus die of destiny rolled at the table, then the player's decision; a turn's end or last
move, then the allocation of its mana) is held open, shown on the board and above the list, and
recorded with the next pick (or typed entry) as one entry; ``+`` ("and then") before a pick
holds it open in the same way where the notation would not (a Kolossus activation, then the next:
one entry), wherever the same player acts after it (``RecordSession.push``'s ``chain``: refused
with the reason in seat mode, for a match-ending entry, where nothing is listed; ``+`` again or
Escape takes it off); Enter alone records the default (⏎:
so an Enter pressed after a key out of habit records the next default, and ``undo`` takes it
back); a line starting with another character, or with ``/``, is typed text: words, the game's
notation, ``undo``, ``note``, JSON, sent with Enter.

:class:`Keypad` is the one place these keys are read: the Textual app (``record_tui.py``) hands
it every key pressed on the entry line, and ``benchmarks/keystrokes.py`` presses the same keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .answers import YES, Answer, Choice
from .session import RecordSession

#: the keys of a list, in order (no ``u``: ``undo``; no ``0``: the match-ending entries)
KEYS = "123456789abcdefghijklmnopqrstvwxyz"
#: the key that opens the match-ending entries
ENDERS = "0"
#: a line starting with it is typed text even where its next character is a key
TEXT = "/"
#: "and then": the next pick (or typed entry) is held open, recorded with the one after it as one entry
CHAIN = "+"
#: a label's words for grouping: a path's squares, an arrow, names between commas
_TOKEN = re.compile(r"->|[^\s,\-]+")


@dataclass(frozen=True)
class Entry:
    """One key's line of a list: a choice (one member) or a group of choices opened by the key."""

    label: str
    members: tuple[Choice, ...]

    @property
    def choice(self) -> Choice | None:
        return self.members[0] if len(self.members) == 1 else None


def _tokens(label: str) -> list[str]:
    return _TOKEN.findall(label.casefold())


def _head(label: str, n: int) -> str:
    """``label`` up to the end of its ``n``-th word (the group's words as the list shows them)."""
    spans = [m.end() for m in _TOKEN.finditer(label)]
    return label[:spans[n - 1]] if 0 < n <= len(spans) else label


def _common(toks: list[list[str]]) -> int:
    """How many first words ``toks`` all share."""
    n = 0
    while all(len(t) > n for t in toks) and len({t[n] for t in toks}) == 1:
        n += 1
    return n


def _split(members: list[int], toks: list[list[str]]) -> list[list[int]] | None:
    """``members`` grouped by the first word in which they differ (None: they do not differ)."""
    n = _common([toks[i] for i in members])
    heads: dict[str, list[int]] = {}
    for i in members:
        heads.setdefault(toks[i][n] if len(toks[i]) > n else "", []).append(i)
    return list(heads.values()) if len(heads) > 1 else None


def fold(choices: list[Choice], size: int = len(KEYS)) -> list[Entry]:
    """``choices`` as at most ``size`` keyed lines (see the module): every choice where they fit;
    else groups by the first word in which the choices differ, the largest split again by their
    next word while the lines last, then the smallest shown whole while they last (a few keys
    even for thousands of Kolossus moves); else (too many different first words) the first
    ``size - 1`` and one line that opens the rest."""
    if len(choices) <= size:
        return [Entry(c.label, (c,)) for c in choices]
    toks = [_tokens(c.label) for c in choices]
    groups = _split(list(range(len(choices))), toks)
    if groups is None or len(groups) > size:
        rest = choices[size - 1:]
        more = f"more: {rest[0].label} … {rest[-1].label}"
        return [Entry(c.label, (c,)) for c in choices[:size - 1]] + [Entry(more, tuple(rest))]
    whole: set[int] = set()
    while True:  # the largest group split by its next word, while the lines last
        order = sorted((g for g in range(len(groups)) if len(groups[g]) > 1 and g not in whole),
                       key=lambda g: (-len(groups[g]), g))
        for g in order:
            sub = _split(groups[g], toks)
            if sub is not None and len(groups) - 1 + len(sub) <= size:
                groups[g:g + 1] = sub
                whole = {w if w < g else w + len(sub) - 1 for w in whole}
                break
            whole.add(g)  # (kept as it is)
        else:
            break
    slots, shown = len(groups), set()
    for g in sorted(range(len(groups)), key=lambda g: (len(groups[g]), g)):  # the smallest groups shown whole
        extra = len(groups[g]) - 1
        if extra and slots + extra <= size:
            shown.add(g)
            slots += extra
    out: list[Entry] = []
    for g, members in enumerate(groups):
        if len(members) == 1 or g in shown:
            out += [Entry(choices[i].label, (choices[i],)) for i in members]
        else:
            head = _head(choices[members[0]].label, _common([toks[i] for i in members]))
            out.append(Entry(head, tuple(choices[i] for i in members)))
    return out


@dataclass
class Pressed:
    """What a key did: ``consumed`` (else it is typed into the line), the answer of an entry it
    recorded or refused (None: a group opened or closed), and the line after it."""

    consumed: bool
    answer: Answer | None = None
    line: str = ""


@dataclass
class Keypad:
    """The keys of one :class:`RecordSession` (see the module)."""

    session: RecordSession
    #: the groups opened, outermost first
    opened: list[Entry] = field(default_factory=list)
    #: the match-ending entries are open (``0``)
    ending: bool = False
    #: the position the open groups belong to
    _at: tuple[int, int] = (-1, -1)
    #: the chain key was pressed: the next pick is held open ("and then"), at this position
    _chain_at: tuple[int, int] | None = None

    def _where(self) -> tuple[int, int]:
        return (self.session.record.entries, self.session.view.entries)

    def listed(self) -> list[Choice]:
        """The choices the keys pick from here: the choices, each listed with the events it stands
        for (a move to one square by another path: the movement left may differ), and the
        compound entries."""
        s = self.session
        choices = s.choices()
        if s.seat is not None or all(c.alternatives == 1 for c in choices):
            return choices + s.compounds()
        others: dict[str, list[Choice]] = {}
        for e in s.view.legal():
            key = s.game.legal_group(e)
            if key is not None:
                others.setdefault(key, []).append(Choice(0, s.label(e), e))
        out: list[Choice] = []
        for c in choices:
            out.append(c)
            if c.alternatives > 1:
                out += [o for o in others.get(s.game.legal_group(c.event) or "", []) if o.event != c.event]
        return out + s.compounds()

    def lines(self) -> list[tuple[str, Entry]]:
        """The keyed lines shown now (an open group's, else the position's)."""
        s = self.session
        if self._where() != self._at:
            self.opened, self.ending = [], False
        if self._chain_at is not None and self._where() != self._chain_at:
            self._chain_at = None  # (an undo, a ruling: another position; the chain was for the pick there)
        if s.confirming is not None or s.over:
            return []
        if self.ending:
            members = list(s.enders())
        elif self.opened:
            members = list(self.opened[-1].members)
        else:
            members = self.listed()
        return list(zip(KEYS, fold(members)))

    def where(self) -> str:
        """What is open, in words ('' for the whole list)."""
        if self.ending:
            return "ends the match (then y)"
        held = self.session.holding
        said = [e for e in held if e.kind != "X"]
        words = [self.session.words(e, at) for e, at in zip(said[:1], [self._held_at()])] + \
            (["…", self.session.words(said[-1], self._held_at(-1))] if len(said) > 1 else [])
        chain = ["and then (+)"] if self.chained else []
        return " ▸ ".join([" ".join(words)] * bool(held) + chain + [e.label for e in self.opened])

    def _held_at(self, k: int = 0) -> object:
        """The position the held event ``k`` (of those not derived) was entered in (its words name it there)."""
        rec = self.session.record
        positions = rec.positions_before(len(rec) - len(self.session.holding))
        said = [p for e, p in zip(self.session.holding, positions) if e.kind != "X"]
        return said[k] if said else None

    @property
    def chained(self) -> bool:
        """The chain key is on: the next pick is held open, recorded with the one after it."""
        return self._chain_at is not None and self._chain_at == self._where()

    def _take_chain(self) -> bool:
        """Whether the entry being made is chained (the key is off after it)."""
        on, self._chain_at = self.chained, None
        return on

    def _chain(self) -> Pressed:
        """The chain key: on (refused with the reason where nothing can be chained), or off again."""
        if self.chained:
            self._chain_at = None
            return Pressed(True)
        why = self.session.chainable()
        if why is not None:
            return Pressed(True, Answer(False, f"+ (and then) is refused: {why}"))
        self._chain_at = self._where()
        return Pressed(True)

    def press(self, key: str, line: str = "") -> Pressed:
        """Key ``key`` (a character, or ``enter``, ``escape``, ``backspace``) pressed with
        ``line`` on the entry line (see the module)."""
        s = self.session
        lines = self.lines()
        if key == "enter":
            self.opened, self.ending = [], False
            text = line[1:] if line.startswith(TEXT) else line
            return Pressed(True, s.enter(text, chain=self._take_chain()))
        if line:
            return Pressed(False, line=line)
        if key == CHAIN and s.confirming is None:
            return self._chain()
        if key in ("escape", "backspace"):
            if self.ending:
                self.ending = False
            elif self.opened:
                self.opened.pop()
            elif self.chained:
                self._chain_at = None
            else:
                return Pressed(key == "escape")
            return Pressed(True)
        if s.confirming is not None:
            if key.lower() in YES:
                return Pressed(True, s.enter(key))
            return Pressed(False)
        if key == ENDERS and not self.ending and s.enders():
            if self._take_chain():
                return Pressed(True, Answer(False, "not chained: the entries that end the match are never chained "
                                                   "(the chain is off: 0 again opens them)"))
            self.ending, self.opened, self._at = True, [], self._where()
            return Pressed(True)
        entry = next((e for k, e in lines if k == key), None)
        if entry is None:
            return Pressed(False)
        if entry.choice is None:
            self.opened.append(entry)
            self._at = self._where()
            return Pressed(True)
        self.opened, self.ending = [], False
        return Pressed(True, s.pick(entry.choice, hold=True, chain=self._take_chain()))

    def keys_for(self, choice: Choice) -> list[str] | None:
        """The keys that pick ``choice`` from the whole list (None: it has none), for a help or a
        benchmark: the path through the open groups, as :meth:`press` reads it."""
        enders = self.session.enders()
        path, members = ([ENDERS], list(enders)) if choice in enders else ([], self.listed())
        for _ in range(16):
            for k, e in zip(KEYS, fold(members)):
                if choice in e.members:
                    path.append(k)
                    if e.choice is not None:
                        return path
                    members = list(e.members)
                    break
            else:
                return None
        return None


__all__ = ["Keypad", "Entry", "Pressed", "fold", "KEYS", "ENDERS", "TEXT", "CHAIN"]
