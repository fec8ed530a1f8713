"""Colossi on the fold contract (:mod:`adjudicator.core.kernel.fold`, issue 33): one working position
(:class:`working.W`) for the length of one verification, changed in place event after event and
frozen only where a caller keeps a position.

python-chess's ``Board`` is the model: ``push`` changes the board in place and a caller who keeps a
position copies it.  Here ``advance`` runs ``Rules.apply_to`` (the one implementation of apply: the
frozen ``Rules.apply`` runs it too) for the event and every consequence ``derive`` forces, on the
working position; ``check`` rules on the working position (the check handlers read it as they
read a State); ``freeze`` builds a State only when asked, the same one until the position
changes.

**Going back.**  A take-back (``restore``) loads a kept position into the working one (FIDE 7.5:
the position before the irregularity), never a refold.  An event whose apply fails leaves the
working position half-changed: it goes back to the last position frozen (``kept``) and replays
the few events advanced since (``since``, at most :data:`JOURNAL` of them: past that the working
position freezes one, so the journal and its replay stay bounded).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.fold import MAX_DERIVED_RUN, EngineLoop
from adjudicator.core.kernel.rulings import Ruling

from .rules import Rules
from .state import State
from .working import W

#: the most events advanced between two frozen positions (a failed apply replays at most these)
JOURNAL = 64
#: what an event that forces nothing derived (shared: never changed; a Step gets a list of its own)
_NOTHING: list[Event] = []


class Working:
    """One verification's working position (the :class:`adjudicator.core.kernel.fold.Working` protocol)."""

    __slots__ = ("rules", "w", "keep_base", "base", "ended", "kept", "since", "check", "outcome")

    def __init__(self, rules: Rules, outcome: Any, state: State) -> None:
        self.rules, self.outcome = rules, outcome
        self.w = w = W(state)
        self.keep_base, self.base = False, None
        self.ended = outcome(state)
        #: the last position frozen, and the events advanced since (what a failure goes back to)
        self.kept, self.since = state, []
        #: the ruling on an event in the working position, never changing it (bound once: the
        #: verifier's hot path; the working position is one object for the whole verification)
        self.check: Callable[[Event], Ruling] = partial(rules.check, w)

    def advance(self, event: Event) -> list[Event]:
        """Apply ``event`` and every consequence the rules force, in place; the derived events.
        On an exception the working position is the one before ``event`` (then it is raised)."""
        since = self.since
        if len(since) >= JOURNAL:
            self.freeze()  # a checkpoint: a failure replays at most JOURNAL events
        rules, w = self.rules, self.w
        try:
            rules.apply_to(w, event)
            if self.keep_base:  # (a judge's ruling may put a stated consequence here)
                self.base = w.freeze()
            d = rules.derive(w)
            derived = _NOTHING if d is None else self._settle(d)
        except BaseException:
            self._back()
            raise
        self.ended = None if w.result is None else self.outcome(w)
        since.append(event)
        return derived

    def _settle(self, d: Event) -> list[Event]:
        """The consequences the rules force from the first, ``d``, applied in place."""
        rules, w = self.rules, self.w
        derived = []
        while d is not None:
            rules.apply_to(w, d)
            derived.append(d)
            if len(derived) > MAX_DERIVED_RUN:
                raise EngineLoop(f"colossi: more than {MAX_DERIVED_RUN} derived events in a row")
            d = rules.derive(w)
        return derived

    def _back(self) -> None:
        """The working position before the event that failed: the last one frozen, and the events
        advanced since replayed (each was applied before: it applies again)."""
        rules, w = self.rules, self.w
        w.load(self.kept)
        for event in self.since:
            rules.apply_to(w, event)
            d = rules.derive(w)
            if d is not None:
                self._settle(d)
        self.ended = self.outcome(w)

    def freeze(self) -> State:
        """The working position as a State nothing done here afterwards changes (the same State
        until the position changes)."""
        s = self.w.freeze()
        if self.since:
            self.kept = s
            self.since.clear()
        return s

    def restore(self, kept: State) -> None:
        """A position ``freeze`` returned (or any position of this match) is the working position
        again: a take-back, never a refold."""
        self.w.load(kept)
        self.kept = kept
        self.since.clear()
        self.ended = self.outcome(kept)
