"""The LOGOS fold's working position (adjudicator/games/logos/working.py, issue 33).

Over generated matches (random and combo-built decks, core/kernel/playout.py) the working fold, whose
apply handlers write one mutable position in place, gives the frozen contract's fold
(``game.apply`` and ``settle``) event by event: the same rulings, the same position right after
the event (``base``), the same derived events and settled positions.  No position it handed out
ever changes afterwards (each is encoded when handed out and again at the end), also after a
take-back (``restore`` of a kept position, the event played again), after a rejected event
(checked, never applied) and after an event whose apply raises half way (the position is the one
before it).  A log event costs at most one frozen position when nothing keeps one.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.fold import settle
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.playout import playout, to_jsonl
from adjudicator.core.kernel.rulings import Undefined
from adjudicator.core.kernel.verify import Visitor, verify
from adjudicator.games.logos import events as E
from adjudicator.games.logos import working as W
from adjudicator.games.logos.working import LogosWorking

GAME = registry.get("logos")


def _frozen_step(s: Any, ev: Any) -> tuple[Any, Any, list[Any]]:
    """The frozen contract: the position right after ``ev``, settled, and what it derived."""
    applied = GAME.apply(s, ev)
    settled, derived = settle(GAME, applied)
    return applied, settled, derived


# seeds 2 and 5: decks built around a combo card (game.sample_setup)
@pytest.mark.parametrize("seed", [0, 1, 2, 5])
def test_the_working_fold_gives_the_frozen_folds_positions_and_never_changes_one_handed_out(seed: int) -> None:
    log, final = playout(GAME, seed, max_events=1500)
    s = settle(GAME, GAME.initial_state(log[0]))[0]
    w = GAME.working(s)
    assert isinstance(w, LogosWorking)
    w.keep_base = True
    handed: list[tuple[Any, bytes]] = []

    def hand(pos: Any) -> Any:
        handed.append((pos, msgspec.json.encode(pos)))
        return pos

    rng = random.Random(seed)
    takebacks = rejected = 0
    for k, ev in enumerate(log[1:], start=1):
        before = hand(w.freeze())
        assert before == s and w.freeze() is before, k
        assert w.check(ev) == GAME.check(s, ev), (k, ev)
        later = log[min(len(log) - 1, k + rng.randrange(2, 6))]  # an event of another position
        ruling = w.check(later)
        assert ruling == GAME.check(s, later), (k, later)
        if not ruling.allowed:  # a rejected event: checked, never applied; nothing changed
            rejected += 1
            assert w.freeze() is before, k
        applied, s, derived = _frozen_step(s, ev)
        assert w.advance(ev) == derived, (k, ev)
        assert hand(w.base) == applied, (k, ev)
        assert hand(w.freeze()) == s, (k, ev)
        assert w.ended == GAME.outcome(s)
        if k % 11 == 5:  # a take-back: the kept position again (no refold), the event played again
            w.restore(before)
            assert w.freeze() is before and w.ended == GAME.outcome(before)
            assert w.advance(ev) == derived
            assert hand(w.freeze()) == s
            takebacks += 1
    assert s == final and w.freeze() == final
    assert takebacks > 5 and rejected > 5, (takebacks, rejected)
    changed = [i for i, (pos, enc) in enumerate(handed) if msgspec.json.encode(pos) != enc]
    assert not changed, f"positions handed out at {changed[:5]} changed afterwards"


def test_an_apply_that_fails_half_way_leaves_the_position_before_it() -> None:
    """BackupAssigned over a Backup card already there discards it first (LG-40) and then finds
    the named card nowhere (Undefined): the working position is the one before the event."""
    log, _ = playout(GAME, 3, max_events=400)
    s = settle(GAME, GAME.initial_state(log[0]))[0]
    w = GAME.working(s)
    tried = 0
    for ev in log[1:]:
        s = _frozen_step(s, ev)[1]
        w.advance(ev)
        if s.phase != "pick":
            continue
        p = s.players[0]
        card = next((c for c in p.slots if c is not None), None)
        if card is None:
            continue
        held = msgspec.structs.replace(s, players=(msgspec.structs.replace(p, backup=card), s.players[1]))
        w.restore(held)
        stranger = E.BackupAssigned(player=p.id, card="no-such-card")
        with pytest.raises(Undefined):
            GAME.apply(held, stranger)
        with pytest.raises(Undefined):
            w.advance(stranger)
        assert w.freeze() is held and msgspec.json.encode(w.freeze()) == msgspec.json.encode(held)
        w.restore(s)
        tried += 1
    assert tried > 3


def test_a_log_event_costs_at_most_one_frozen_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Verified with the plain visitor (nothing kept), the working fold makes no frozen position
    for a log event (the set-up's first position aside: the verifier keeps it); the frozen
    contract's apply made one per event and derived event (2.3 per log event)."""
    logs = [playout(GAME, seed, max_events=1500)[0] for seed in (0, 2)]
    made, applies = [0], [0]
    state_type, frozen_apply = W.State, GAME.apply

    def counted(*values: Any) -> Any:
        made[0] += 1
        return state_type(*values)

    def apply(s: Any, e: Any) -> Any:
        applies[0] += 1
        return frozen_apply(s, e)

    monkeypatch.setattr(W, "State", counted)
    monkeypatch.setattr(GAME, "apply", apply)
    for seed, log in zip((0, 2), logs):
        res = verify(parse_log(to_jsonl(log), f"logos-{seed}"), Visitor())
        assert res.verdict == "legal" and res.events == len(log)
    monkeypatch.undo()
    assert applies[0] == 0  # the frozen contract's apply is not called on a full log
    assert made[0] <= 2 * len(logs), made[0]  # the first position of each (and the last, Result.state)
    events = sum(len(log) - 1 for log in logs)
    assert events > 400


def test_another_fold_of_the_same_rules_between_derive_and_apply_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rules object is shared (a service folds several matches at once, one per thread): a
    fold of another match that derives between this fold's derive and its apply (the rules'
    ``_memo`` of a fired effect or a strike then names the other position) leaves this fold's
    positions those of the frozen contract: an effect or strike derive fired in place is never
    fired again."""
    log, final = playout(GAME, 2, max_events=1500)
    other_log, _ = playout(GAME, 7, max_events=1500)
    others, t = [], settle(GAME, GAME.initial_state(other_log[0]))[0]
    for ev in other_log[1:]:  # the other match's positions at an effect or a strike (derive fires them)
        t = GAME.apply(t, ev)
        while (d := GAME.derive(t)) is not None:
            if type(d) in (E.EffectResolved, E.StrikeResolved):
                others.append(t)
            t = GAME.apply(t, d)
    assert len(others) > 20
    rules, derive, calls = GAME.rules, GAME.rules.derive, [0]

    def interleaved(s: Any) -> Any:
        d = derive(s)
        calls[0] += 1
        derive(others[calls[0] % len(others)])  # "another thread": the shared memo now names its position
        return d

    s = settle(GAME, GAME.initial_state(log[0]))[0]
    w = GAME.working(s)
    monkeypatch.setattr(rules, "derive", interleaved)
    fired = 0
    for ev in log[1:]:
        derived = w.advance(ev)
        fired += sum(type(d) in (E.EffectResolved, E.StrikeResolved) for d in derived)
    monkeypatch.undo()
    assert fired > 20 and w.freeze() == final
