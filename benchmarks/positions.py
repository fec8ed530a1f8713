"""Frozen positions made per log event (issue 33): what a verification that keeps nothing costs in
positions, whatever contract the game is on.

A game on the frozen-state contract makes a new frozen position for every event and every derived
event (``game.apply`` returns one); a game with a working position of its own (``game.working``,
:class:`adjudicator.core.kernel.fold.Working`) changes it in place and freezes one only where a caller
keeps it.  One verify pass over the corpus (``adjudicator.core.kernel.verify.run``, the plain visitor)
counts the distinct objects of the game's position type (the type of ``initial_state``) that cross
the fold's boundary: returned by ``game.apply``, handed to ``game.check``/``game.derive``/
``game.outcome``, handed out by the working position (``freeze``, ``base``).  A working position
of the game's own type that never crosses it (a mutable mirror) is not a frozen position and is not
counted; a frozen position a game makes and drops inside its own working position is not seen
either (the count is a floor for such a game: what the fold was handed).  Divided by the log
events after the set-up.

The count must not change the path it counts: the fold calls a kit game's own ``outcome``,
``check`` and ``apply`` by a shorter way (:func:`~adjudicator.core.kernel.kit.direct_outcome`:
``outcome`` only once ``result`` is set; ``direct_check``, ``direct_apply``: the handler of an
event's type), which it recognises by the bound method's ``__func__``.  A plain wrapper hid
it, so the fold asked ``outcome`` of a frozen position after every event and the count was one
position per event that the verification itself never made (Colossus Order: 1.00 counted, 0.001
made).  :class:`_Noting` wraps a method keeping its ``__func__`` and ``__self__``: the fold takes
the path it takes unwatched, and every position the path hands to the wrapper is noted."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from adjudicator.core.kernel import verify as core_verify
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.protocol import Game

from .corpus import CorpusFile, _read

#: the issue's target: a log event costs at most one frozen position when nothing keeps it
POSITIONS_PER_EVENT_MAX = 1.0


class _Noting:
    """``method`` (a game's bound method), noting the position it is called with (and, for
    ``apply``, the one it returns); ``__func__`` and ``__self__`` are the method's, so the fold's
    shorter ways see the game's own method (the module docstring says why)."""

    __slots__ = ("_call", "__func__", "__self__")

    def __init__(self, method: Any, call: Callable[..., Any]) -> None:
        self._call = call
        self.__func__ = getattr(method, "__func__", None)
        self.__self__ = getattr(method, "__self__", None)

    def __call__(self, *args: Any) -> Any:
        return self._call(*args)


class _Counted:
    """A working position that notes every position it hands out (the rest is the game's own)."""

    def __init__(self, working: Any, note: Callable[[Any], Any]) -> None:
        object.__setattr__(self, "_w", working)
        object.__setattr__(self, "_note", note)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._w, name)
        return self._note(value) if name == "base" else value

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._w, name, value)

    def freeze(self) -> Any:
        return self._note(self._w.freeze())

    def restore(self, kept: Any) -> None:
        self._w.restore(self._note(kept))


def measure(game: Game, files: Sequence[CorpusFile]) -> dict[str, Any]:
    """``positions_per_event`` over ``files`` (one verify pass; see the module docstring)."""
    seen: dict[int, Any] = {}  # id -> position (kept alive: an id is never reused within a match)
    kind: list[type] = [object]

    def note(x: Any) -> Any:
        if x.__class__ is kind[0]:
            seen[id(x)] = x
        return x

    bound = {name: vars(game)[name] for name in ("apply", "check", "derive", "outcome") if name in vars(game)}
    apply, check, derive, outcome = game.apply, game.check, game.derive, game.outcome
    working_for = core_verify.working_for
    game.apply = _Noting(apply, lambda s, e: note(apply(note(s), e)))  # type: ignore[method-assign]
    game.check = _Noting(check, lambda s, e: check(note(s), e))  # type: ignore[method-assign]
    game.derive = _Noting(derive, lambda s: derive(note(s)))  # type: ignore[method-assign]
    game.outcome = _Noting(outcome, lambda s: outcome(note(s)))  # type: ignore[method-assign]
    core_verify.working_for = lambda g, s: _Counted(working_for(g, s), note)  # type: ignore[assignment]
    made = events = 0
    try:
        for f in files:
            log = parse_log(_read(f.path), f.path)
            kind[0] = type(game.initial_state(log.events[0][1]))
            core_verify.run(log)
            made += len(seen)
            events += len(log.events) - 1
            seen.clear()
    finally:
        core_verify.working_for = working_for  # type: ignore[assignment]
        for name in ("apply", "check", "derive", "outcome"):
            if name in bound:
                setattr(game, name, bound[name])
            else:
                delattr(game, name)
    per = made / events if events else 0.0
    return {"positions_per_event": per, "positions_made": made, "positions_events": events,
            "positions_contract": "own working position" if callable(getattr(game, "working", None)) else "frozen states"}


def render(r: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The report's row (beside the side-by-side ratio)."""
    if "positions_per_event" not in r:
        return []
    per = r["positions_per_event"]
    return [("  positions made per log event", f"{per:.2f} frozen ({r['positions_contract']}, nothing kept)",
             f"<= {POSITIONS_PER_EVENT_MAX:g}", "PASS" if per <= POSITIONS_PER_EVENT_MAX else "MISS")]
