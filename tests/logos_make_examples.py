"""Generate the LOGOS example logs in ``examples/logos/``.

``python -m tests.logos_make_examples`` rewrites the files; ``tests/test_logos_examples.py``
checks that regenerating gives the committed files byte for byte.

The complete matches begin with scripted rounds that show the disputed orderings (a Color Change
that turns the direction of battle, a Deadlock, a counter-attack, a Neutralize that blocks a later
effect, a Mimmick, a Backup call), then :class:`Bot`, a simple rule-of-thumb player with seeded
draws, plays them to the end.  The illegal logs are short scripted match prefixes whose last line
breaks exactly one rule; their ``note`` says what is wrong.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.games.logos import events as E
from adjudicator.games.logos.commitments import commitment_of
from adjudicator.games.logos.values import beats, card_stats, pool_of

from .logos_scenarios import A, B, GAME, POOL, Script, salt
from .ruling_examples import TEXT as RULING_TEXT
from .ruling_examples import ruling_examples

OUT = Path(__file__).resolve().parent.parent / "examples" / "logos"


# ==================================================================================================
# a rule-of-thumb player
# ==================================================================================================

class Bot:
    """Plays both sides of a Script: draws at random (seeded), keeps one fast card in the Backup
    Slot, sends the card with the best Attack (preferring Regeneration when low), and calls the
    Backup card when it would turn a defence into an attack."""

    def __init__(self, script: Script, seed: int) -> None:
        self.s = script
        self.rng = random.Random(seed)

    def add(self, event: Event, note: str | None = None) -> None:
        self.s.add(event, note)

    def step(self) -> None:
        s = self.s
        st = s.state()
        if st.phase == "refill":
            p = GAME.rules.refill_next(st)
            self.add(E.CardDrawn(player=p.id, card=self.rng.choice(p.deck)))
        elif st.phase == "pick":
            for pid in GAME.to_act(st):
                self.choose(pid)
                return
        elif st.phase == "reveal":
            pid = GAME.to_act(st)[0]
            s.reveal(pid, self.picks[pid])
        elif st.phase == "battle" and st.step == "backup":
            self.backup(st.priority)
        else:  # pragma: no cover - the bot only meets the steps above
            raise AssertionError(f"the bot cannot act in {st.phase}/{st.step}")

    picks: dict[str, str] = {}

    def choose(self, pid: str) -> None:
        s = self.s
        st = s.state()
        me = st.player(pid)
        playable = GAME.rules.playable(st, me)
        fast = [c for c in playable if POOL[c].backup_eligible]
        if me.backup is None and fast and len(playable) > 1 and self.rng.random() < 0.5:
            card = fast[0]
            if s.check(E.BackupAssigned(player=pid, card=card)).legal:
                self.add(E.BackupAssigned(player=pid, card=card))
                return

        def score(c: str) -> tuple[int, str]:
            card = POOL[c]
            heal = card.right is not None and card.right.do == "regeneration" and me.hp < 60_000
            return (card.attack + (30_000 if heal else 0) + self.rng.randrange(8_000), c)

        card = max(playable, key=score)
        self.picks = {**self.picks, pid: card}
        if st.options.picks == "open":
            self.add(E.CardPicked(player=pid, card=card))
        else:
            s.commit(pid, card)

    def backup(self, pid: str) -> None:
        s = self.s
        st = s.state()
        me, opp = st.player(pid), st.opponent(pid)
        d = st.direction
        if opp.battle is None:
            s.pass_(pid)
            return
        theirs = GAME.rules.stats(st, opp)[0]
        mine = card_stats(pool_of(st), me.backup, ())[0]
        if d.defender == pid and beats(mine, theirs):
            self.add(E.BackupCalled(player=pid), f"{me.backup} ({mine}) beats {opp.battle} ({theirs}): the Defender turns Attacker")
        else:
            s.pass_(pid)

    def play(self, max_events: int = 4000) -> None:
        while self.s.state().result is None and len(self.s.log) < max_events:
            self.step()


# ==================================================================================================
# the complete matches
# ==================================================================================================

SHOWCASE_DECKS = {
    A: {"ember-convert": 2, "iron-golem": 2, "stone-sentinel": 2, "signal-jammer": 2, "data-ghost": 2,
        "spark-wisp": 2, "storm-coil": 2, "logic-bomb": 2, "quiet-index": 2, "pale-mender": 2,
        "dynamo-knight": 2, "cipher-drone": 2},
    B: {"quiet-index": 2, "iron-golem": 3, "tide-turbine": 2, "rust-swarm": 2, "magma-titan": 2,
        "storm-coil": 2, "arc-lancer": 2, "quake-hammer": 2, "white-wall": 2, "solar-flare": 2,
        "null-prism": 2, "archive-oracle": 1},
}


def showcase() -> Script:
    """Hidden picks, standard ruleset: scripted rounds 1-6, then the bot."""
    s = Script(SHOWCASE_DECKS)
    s.refill({A: ["ember-convert", "iron-golem", "stone-sentinel"], B: ["quiet-index", "iron-golem", "iron-golem"]})
    # round 1: INFORMATION beats MATTER, but ann's Color Change makes ben's card ENERGY
    s.commit(A, "ember-convert")
    s.commit(B, "quiet-index")
    s.reveal(A, "ember-convert")
    s.reveal(B, "quiet-index")
    # round 2: the same class and Speed: Deadlock, no effects, no push
    s.refill({A: ["signal-jammer"], B: ["tide-turbine"]})
    s.commit(A, "iron-golem")
    s.commit(B, "iron-golem")
    s.reveal(A, "iron-golem")
    s.reveal(B, "iron-golem")
    # round 3: stone-sentinel maximizes itself; iron-golem (faster) does no damage; counter-attack
    s.refill({A: ["data-ghost"], B: ["rust-swarm"]})
    s.play("stone-sentinel", "iron-golem")
    # round 4: ben's ENERGY attacks; ann's Neutralize shields ben and blocks his own Add Card Slot
    s.refill({A: ["spark-wisp"], B: ["storm-coil"]})
    s.assign(A, "spark-wisp")
    s.commit(A, "signal-jammer")
    s.commit(B, "tide-turbine")
    s.reveal(A, "signal-jammer")
    s.reveal(B, "tide-turbine")
    s.pass_(A)
    # round 5: ann's Mimmick copies ben's Destroy Combo and fires it at ben
    s.refill({A: ["logic-bomb"], B: ["arc-lancer"]})
    s.commit(A, "data-ghost")
    s.commit(B, "rust-swarm")
    s.reveal(A, "data-ghost")
    s.reveal(B, "rust-swarm")
    s.pass_(A)
    # round 6: ann defends with logic-bomb against ben's arc-lancer (ENERGY beats INFORMATION),
    # calls spark-wisp: ENERGY against ENERGY, and spark-wisp is faster: ann attacks
    s.refill({A: ["quiet-index"], B: ["white-wall"]})
    s.commit(A, "logic-bomb")
    s.commit(B, "arc-lancer")
    s.reveal(A, "logic-bomb")
    s.reveal(B, "arc-lancer")
    s.add(E.BackupCalled(player=A), "spark-wisp (Speed 120) is faster than arc-lancer: the direction turns")
    Bot(s, 2024).play()
    return s


def open_match() -> Script:
    """Open picks (one event per pick), the demo ruleset (decks of 25), played by the bot."""
    decks = {
        A: {"storm-coil": 3, "dynamo-knight": 3, "spark-wisp": 2, "static-field": 2, "arc-lancer": 3,
            "tide-turbine": 2, "solar-flare": 2, "iron-golem": 3, "magma-titan": 2, "rust-swarm": 3},
        B: {"quiet-index": 3, "logic-bomb": 3, "cipher-drone": 3, "data-ghost": 2, "mirror-protocol": 2,
            "signal-jammer": 2, "archive-oracle": 2, "archive-keeper": 2, "hollow-echo": 3, "null-prism": 3},
    }
    s = Script(decks, ruleset="demo", options={"picks": "open"})
    Bot(s, 3).play()
    return s


def legal_examples() -> dict[str, Callable[[], Script]]:
    return {"legal-hidden-picks.jsonl": showcase, "legal-open-picks.jsonl": open_match}


def features(s: Script) -> set[str]:
    """What a match shows (for the README and the tests)."""
    out: set[str] = set()
    events = s.all_events()
    for i, e in enumerate(events):
        t = type(e)
        if t is E.DirectionDetermined and e.basis == "deadlock":
            out.add("deadlock")
        if t is E.DirectionDetermined and e.stage == "after-effects":
            before = next(x for x in reversed(events[:i]) if type(x) is E.DirectionDetermined)
            if (before.attacker, before.defender) != (e.attacker, e.defender):
                out.add("direction-turned")
                if any(type(x) is E.EffectResolved and x.effect == "color-change" and x.result == "applied"
                       for x in events[events.index(before):i]):
                    out.add("color-change-turns-direction")
        if t is E.StrikeResolved and e.counter:
            out.add("counter-attack")
        if t is E.EffectResolved and e.effect == "neutralize" and e.result == "applied":
            out.add("neutralize")
        if t is E.EffectResolved and e.result == "blocked":
            out.add("blocked")
        if t is E.EffectResolved and e.effect == "mimmick" and e.copied and e.result == "applied":
            out.add("mimmick")
        if t is E.BackupCalled:
            out.add("backup-call")
        if t is E.Defenseless:
            out.add("defenseless")
    return out


# ==================================================================================================
# the illegal logs
# ==================================================================================================

def _opened(decks: Any = None, options: dict[str, Any] | None = None, ruleset: str = "standard",
            draws: dict[str, list[str]] | None = None) -> Script:
    s = Script(decks, options=options, ruleset=ruleset)
    s.refill(draws)
    return s


def illegal_examples() -> dict[str, tuple[Script, str, str]]:
    """name -> (script whose last raw line is illegal, rule, README text)."""
    out: dict[str, tuple[Script, str, str]] = {}

    s = Script(players=[A, B, "cy"], decks={A: {"iron-golem": 4}, B: {"iron-golem": 4}, "cy": {"iron-golem": 4}})
    s.log = []
    s.append_raw(E.MatchStarted(game="logos", players=[A, B, "cy"], decks={p: {"iron-golem": 4} for p in (A, B, "cy")}),
                 "LOGOS is a two-player game")
    out["illegal-LG-1.1-three-players.jsonl"] = (s, "LG-1.1", "the MatchStarted line names three players (LG-1.1, two-players)")

    s = Script(ruleset="demo", decks={A: {"iron-golem": 12, "storm-coil": 12}, B: {"white-wall": 25}})
    s.log = []
    s.append_raw(E.MatchStarted(game="logos", players=[A, B], ruleset="demo",
                                decks={A: {"iron-golem": 12, "storm-coil": 12}, B: {"white-wall": 25}}),
                 "the demo ruleset asks for decks of exactly 25 cards; ann's holds 24")
    out["illegal-LG-1.2-demo-deck-of-24.jsonl"] = (s, "LG-1.2", "the demo ruleset asks for decks of 25; ann's deck holds 24 (LG-1.2, deck-size)")

    s = Script()
    s.draw("iron-golem", A)
    s.append_raw(E.CardCommitted(player=B, commitment=commitment_of("white-wall", salt(B, 1))),
                 "ben commits while ann's slots are still being refilled")
    out["illegal-LG-2.1-pick-during-refill.jsonl"] = (s, "LG-2.1", "ben commits to a card while ann's slots are still being refilled: not his decision (LG-2.1, out-of-step)")

    s = Script()
    s.draw("iron-golem", A)
    s.append_raw(E.CardDrawn(player=B, card="storm-coil"), "ben draws before ann's three slots are full")
    out["illegal-LG-2.2-second-player-draws-first.jsonl"] = (s, "LG-2.2", "ben draws while ann's slots are still being refilled (LG-2.2, wrong-drawer)")

    s = Script()
    s.append_raw(E.CardDrawn(player=A, card="magma-titan"), "magma-titan is not in ann's deck")
    out["illegal-LG-2.3-card-not-in-deck.jsonl"] = (s, "LG-2.3", "ann draws magma-titan, which her deck does not hold (LG-2.3, not-in-deck)")

    s = _opened({A: ["magma-titan"] * 3 + ["iron-golem"] * 3, B: ["storm-coil"] * 6}, draws={A: ["magma-titan"] * 3})
    s.append_raw(E.CardCommitted(player=A, commitment=commitment_of("magma-titan", salt(A, 1))),
                 "ann holds only magma-titan, which needs a MATTER card last round: she is defenseless")
    out["illegal-LG-2.4-defenseless-player-commits.jsonl"] = (s, "LG-2.4", "ann has no playable card (three magma-titan, empty counter) and is defenseless, yet commits (LG-2.4, defenseless)")

    s = _opened()
    s.commit(A, "iron-golem")
    s.append_raw(E.CardCommitted(player=A, commitment=commitment_of("white-wall", salt(A, 1))),
                 "ann changes her mind: a second commitment in the same round")
    out["illegal-LG-3.1-second-commitment.jsonl"] = (s, "LG-3.1", "ann commits twice in one round (LG-3.1, already-picked)")

    s = _opened(draws={A: ["iron-golem", "iron-golem", "white-wall"]})
    s.commit(A, "storm-coil")
    s.commit(B, "iron-golem")
    s.append_raw(E.PickRevealed(player=A, card="storm-coil", salt=salt(A, 1)),
                 "the reveal opens the commitment, but storm-coil is not in ann's slots")
    out["illegal-LG-3.2-revealed-card-not-in-slots.jsonl"] = (s, "LG-3.2", "ann's reveal opens her commitment, but storm-coil is not in her slots (LG-3.2, not-in-slots)")

    s = _opened({A: ["quiet-index", "magma-titan", "white-wall"] + ["quiet-index"] * 3, B: ["storm-coil"] * 6},
                options={"picks": "open"}, draws={A: ["quiet-index", "magma-titan", "white-wall"]})
    s.play("quiet-index", "storm-coil")
    s.refill()
    s.append_raw(E.CardPicked(player=A, card="magma-titan"),
                 "magma-titan needs MATTER in the latest panel; ann's counter shows INFORMATION")
    out["illegal-LG-3.3-combo-not-met.jsonl"] = (s, "LG-3.3", "open picks: ann sends magma-titan, whose combo needs MATTER last round, after an INFORMATION round (LG-3.3, combo-mismatch)")

    s = _opened()
    s.commit(A, "iron-golem")
    s.commit(B, "storm-coil")
    s.append_raw(E.PickRevealed(player=A, card="white-wall", salt=salt(A, 1)),
                 "ann committed to iron-golem and now reveals white-wall")
    out["illegal-LG-3.4-reveal-does-not-open-commitment.jsonl"] = (s, "LG-3.4", "ann reveals a different card than the one she committed to (LG-3.4, commitment-mismatch)")

    s = _opened(draws={A: ["iron-golem", "storm-coil", "white-wall"]})
    s.append_raw(E.BackupAssigned(player=A, card="storm-coil"), "storm-coil has Speed 75: too slow for the Backup Slot")
    out["illegal-LG-4.1-backup-card-too-slow.jsonl"] = (s, "LG-4.1", "ann sends storm-coil (Speed 75) to the Backup Slot (LG-4.1, not-eligible)")

    s = _opened({A: ["spark-wisp", "iron-golem", "iron-golem"] + ["white-wall"] * 3, B: ["quiet-index"] * 6},
                draws={A: ["spark-wisp", "iron-golem", "iron-golem"]})
    s.assign(A, "spark-wisp")
    s.commit(A, "iron-golem")
    s.commit(B, "quiet-index")
    s.reveal(A, "iron-golem")
    s.reveal(B, "quiet-index")
    s.append_raw(E.BackupPassed(player=B), "ann (the Defender, with a Backup card) is asked; ben has no Backup card")
    out["illegal-LG-4.2-backup-window-out-of-turn.jsonl"] = (s, "LG-4.2", "in the Backup window ben answers, but only ann is asked (LG-4.2, not-asked)")

    s = _opened()
    s.append_raw(E.CardPicked(player=A, card="iron-golem"), "the standard ruleset keeps picks hidden: commit, then reveal")
    out["illegal-LG-6-open-pick-in-a-hidden-match.jsonl"] = (s, "LG-6", "a CardPicked line in a match with hidden picks (LG-6, commitment-required)")

    s = _opened({A: ["spark-wisp", "magma-titan", "magma-titan"] + ["white-wall"] * 3, B: ["storm-coil"] * 6},
                draws={A: ["spark-wisp", "magma-titan", "magma-titan"]})
    s.append_raw(E.BackupAssigned(player=A, card="spark-wisp"), "spark-wisp is ann's only playable card")
    out["illegal-LG-17-last-playable-card-to-backup.jsonl"] = (s, "LG-17", "ann sends her only playable card to the Backup Slot (LG-17, last-playable)")

    s = _opened(draws={A: ["iron-golem"] * 3, B: ["storm-coil"] * 3})
    s.play("iron-golem", "storm-coil")
    full = s.all_events()
    i = next(k for k, e in enumerate(full) if type(e) is E.StrikeResolved)
    s.log = [(e, []) for e in full[:i]]
    s.append_raw(msgspec.structs.replace(full[i], damage=18_000, hp=82_000),
                 "the strike ignores storm-coil's Defense of 9,000")
    out["illegal-LOG-2-strike-ignores-defense.jsonl"] = (s, "LOG-2", "the log states a StrikeResolved with 18,000 damage; Attack 18,000 minus Defense 9,000 is 9,000 (LOG-2, derived-mismatch)")

    s = _opened(draws={A: ["iron-golem"] * 3, B: ["storm-coil"] * 3}, options={"start_hp": 9_000})
    s.play("iron-golem", "storm-coil")
    s.append_raw(E.CardDrawn(player=A, card="iron-golem"), "ben's 9,000 hit points are gone: the match is over")
    out["illegal-LOG-3-draw-after-the-end.jsonl"] = (s, "LOG-3", "with 9,000 starting hit points ben loses in round 1; a draw follows (LOG-3, after-end)")
    return out


# ==================================================================================================
# writing
# ==================================================================================================

def generate() -> dict[str, bytes]:
    made: dict[str, bytes] = {}
    for name, make in legal_examples().items():
        made[name] = make().lines()
    for name, (s, _rule, _text) in illegal_examples().items():
        made[name] = s.lines()
    made.update(ruling_examples("logos", made["legal-hidden-picks.jsonl"]))  # judges' rulings
    made.update(seat_examples(made["legal-hidden-picks.jsonl"]))  # unknown identities
    return dict(sorted(made.items()))


# ==================================================================================================
# a seat's record (unknown identities, LG-35 to LG-38)
# ==================================================================================================

SEAT = "undetermined-ann-record-of-hidden-picks.jsonl"
PLANTED = "illegal-LG-36-impossible-draw-in-a-seat-record.jsonl"
#: the seat's record as `redact --as` writes it now: what the seat saw named (issue 20, LG-39)
KNOWN = "legal-seat-ann-hidden-picks.jsonl"
SEAT_TEXT = {
    KNOWN: "ann's record of `legal-hidden-picks.jsonl`, as `adjudicator redact --as ann` writes it: ben's deck list `{}` and "
    "his draws and Backup assignments `\"?\"`, but each Backup card he calls named (`BackupCalled.card`: it is turned face up "
    "for both players, LG-39). It verifies `legal` (exit 0): every condition on ben's unknown cards is settled by a later "
    "event of the record (his reveals show he held a playable card; his called Backup cards were eligible, LG-37)",
    SEAT: "ann's record of `legal-hidden-picks.jsonl` kept by hand, without the names of ben's called Backup cards: ben's deck "
    "list `{}`, his draws and Backup cards `\"?\"`. It verifies `undetermined` (exit 4): what his called Backup cards did "
    "are conditions (LG-38), never violations",
    PLANTED: "ann's record of the same match, keeping ben's registered deck list: one of ben's unknown draws is written as a "
    "card all of whose copies in his deck list are already accounted for (LG-36, impossible-card)",
}


def seat_examples(full: bytes) -> dict[str, bytes]:
    """ann's record of a complete match, and the same record with ben's deck list and a planted
    impossible draw (the first of ben's unknown draws at which a card of his list is used up)."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.verify import run
    from adjudicator.games.logos.unknowns import tracked

    enc = msgspec.json.Encoder()
    full_events = [GAME.decoder.decode(ln) for ln in full.splitlines()]
    seat = [GAME.redact(e, A) for e in full_events]
    out = {SEAT: b"".join(enc.encode(e) + b"\n" for e in seat)}
    from adjudicator.core.kernel.seats import redact_log

    out[KNOWN] = b"".join(enc.encode(e) + b"\n" for e in redact_log(parse_log(full), A))
    listed = [msgspec.structs.replace(seat[0], decks=full_events[0].decks), *seat[1:]]
    lines = [enc.encode(e) for e in listed]
    log = parse_log(b"\n".join(lines) + b"\n")
    for i, e in enumerate(listed):
        if i < 2 or not (type(e) is E.CardDrawn and e.player == B and e.card == "?"):
            continue
        st = run(log, upto=i).state  # the position before line i + 1
        ben = st.player(B)
        if not tracked(st, ben):
            continue
        used = [c for c in sorted(full_events[0].decks[B]) if c not in ben.unseen]
        if used:
            bad = E.CardDrawn(player=B, card=used[0], note=f"planted: every copy of {used[0]} in ben's deck list is already accounted for")
            out[PLANTED] = b"".join(ln + b"\n" for ln in lines[:i]) + enc.encode(bad) + b"\n"
            break
    return out


LEGAL_TEXT = {
    "legal-hidden-picks.jsonl": "complete legal match, standard ruleset with hidden picks (CardCommitted, then PickRevealed). "
    "Scripted rounds first: a Color Change turns the direction of battle (round 1), a Deadlock (round 2), a counter-attack "
    "(round 3), a Neutralize that blocks a later effect (round 4), a Mimmick that copies Destroy Combo (round 5), a Backup call "
    "that turns the Defender into the Attacker (round 6); then both sides are played by a rule-of-thumb bot until ann wins on hit points.",
    "legal-open-picks.jsonl": "complete legal match, demo ruleset (decks of 25) with open picks (one CardPicked each), played by "
    "the bot: Color Changes, Neutralize, Mimmick, Backup calls and a defenseless round; ann wins on hit points.",
}


def readme() -> str:
    lines = [
        "# LOGOS example logs",
        "",
        "Generated by `python -m tests.logos_make_examples` (the complete matches begin with scripted rounds and are",
        "finished by a simple rule-of-thumb bot with seeded draws; the illegal logs are scripted). `tests/test_logos_examples.py`",
        "checks each verdict and that regenerating gives these files. `adjudicator verify examples/logos/` exits 1 because some",
        "logs are illegal. An illegal log breaks one rule, on its last line (the `note` field of that line says what is wrong);",
        "the file name gives the rule id. The logs write no derived events (the engine derives them); `adjudicator check",
        "LOG --at N --event ...` shows them.",
        "",
    ]
    for name in legal_examples():
        lines.append(f"- `{name}`: {LEGAL_TEXT[name]}")
    for name, text in RULING_TEXT.items():
        lines.append(f"- `{name}`: {text}")
    for name, text in SEAT_TEXT.items():
        lines.append(f"- `{name}`: {text}.")
    for name, (_s, _rule, text) in sorted(illegal_examples().items()):
        lines.append(f"- `{name}`: {text}.")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.jsonl"):
        old.unlink()
    for name, data in generate().items():
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT / name} ({len(data.splitlines())} lines)")
    (OUT / "README.md").write_text(readme())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
