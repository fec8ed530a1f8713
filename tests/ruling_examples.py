"""Example logs with judges' rulings (``JudgeRuling``), made from a game's complete legal example.

Each game's example maker adds them (``made.update(ruling_examples(GAME_ID, made[...]))``):

- ``legal-judge-taken-back.jsonl``: the complete match with one illegal event inserted a third of
  the way in, taken back at once by a judge's ruling; the match then goes on as it was played.
- ``legal-judge-stands.jsonl``: the same illegal event stands by a judge's ruling (with a penalty
  for it); play goes on from the position it left (seeded random legal events) until a judge's
  ``result`` ruling ends the match.

Both verify ``legal`` with the irregularity as a warning (docs/log-format.md, "Judges' rulings").
"""

from __future__ import annotations

import random

from msgspec.structs import replace

from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import JudgeRuling, encode_line
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.verify import propose, run, settle

#: events played after the illegal one stands, before the result ruling
AFTER = 12


def _lines(data: bytes) -> list[bytes]:
    return [ln for ln in data.split(b"\n") if ln.strip()]


def _irregular(game, steps, k: int):
    """The first later event of the match that is illegal in the position after event ``k`` and
    that the engine can apply unchecked (so it can stand), with that position."""
    state = steps[k - 1].state
    for st in steps[k:]:
        ev = st.event
        if ev.kind not in ("D", "R"):
            continue
        ruling = game.check(state, ev)
        if ruling.legal:
            continue
        try:
            after, _ = settle(game, game.apply(state, ev))
        except Exception:  # noqa: BLE001 - not one the engine can let stand: try the next
            continue
        if game.outcome(after) is None and game.legal_events(after):
            return ev, ruling, state, after
    raise AssertionError(f"{game.id}: no later event is illegal after event {k}")


def ruling_examples(game_id: str, complete: bytes, seed: int = 11) -> dict[str, bytes]:
    game = registry.get(game_id)
    lines = _lines(complete)
    steps = run(parse_log(complete, game_id), record_steps=True).steps
    k = len(lines) // 3
    while steps[k].event.kind != "D":  # insert before a decision (no derived event owed)
        k += 1
    ev, ruling, _before, after = _irregular(game, steps, k)
    players = game.players(after)
    who = getattr(ev, "player", None) if getattr(ev, "player", None) in players else players[0]
    other = next(p for p in players if p != who)
    n = k + 1  # the number (and line) of the inserted event
    bad = encode_line(replace(ev, note=f"irregular: {ruling.rule} ({ruling.message})"))

    def judge(**fields) -> bytes:
        return encode_line(JudgeRuling(event=n, line=n, judge="the tournament judge", **fields))

    taken_back = lines[:k] + [bad, judge(decision="taken-back", reason=f"{ruling.rule}: the position before it is restored")] + lines[k:]
    rng = random.Random(seed)
    played: list[bytes] = []
    state = after
    for _ in range(AFTER):
        options = game.legal_events(state)
        if game.outcome(state) is not None or not options:
            break
        e = rng.choice(options)
        _r, _d, state = propose(game, state, e)
        played.append(encode_line(e))
    stands = lines[:k] + [bad, judge(decision="stands", reason="noticed only after the opponent replied"),
                          judge(decision="penalty", player=who, penalty="a warning")] + played + [
        judge(decision="result", result="win", winner=other,
              reason=f"{who} left the table after the irregularity: a game loss")]
    return {"legal-judge-taken-back.jsonl": b"".join(ln + b"\n" for ln in taken_back),
            "legal-judge-stands.jsonl": b"".join(ln + b"\n" for ln in stands)}


#: what each ruling example shows (the examples' README lines)
TEXT = {
    "legal-judge-stands.jsonl": "complete match with judges' rulings (`JudgeRuling`, LOG-5): the complete legal "
    "match's first third, then an illegal event that **stands** by a judge's ruling (with a penalty for it), play going "
    "on from the position it left, and a judge's **result** ruling ending the match; verifies `legal` with the "
    "irregularity as a warning.",
    "legal-judge-taken-back.jsonl": "the complete legal match with an illegal event inserted a third of the way in and "
    "**taken back** at once by a judge's ruling (`JudgeRuling`, LOG-5); the match goes on from the position before it "
    "and verifies `legal` with the irregularity as a warning.",
}
