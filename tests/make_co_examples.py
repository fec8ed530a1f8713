"""Generate the Colossus Order example logs in ``examples/colossus-order/``.

``python -m tests.make_co_examples`` rewrites the files; ``tests/test_examples.py`` checks that
regenerating gives the committed files byte for byte.

The two complete matches are played by :class:`Bot`, a simple rule-of-thumb player (set a gem,
set a Locus card, play the biggest follower it can, attack, block when the blocker survives,
answer attacks with Dark Strike or Guardian's Intervention) with seeded random draws, so they
read like human play rather than random noise.  The illegal logs are short scripted match
prefixes whose last line breaks exactly one rule; their ``note`` says what is wrong.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

import msgspec

from adjudicator.core.kernel.events import Event
from adjudicator.games.colossus_order import events as E
from adjudicator.games.colossus_order.state import (
    Block, Capture, Declare, DiscardDeclared, Draw, Mulligan, ReplaceLocus, Reveal, Window,
)

from .co_scenarios import A, B, BLACK, GAME, POOL, WHITE, Script, deck, setup
from .ruling_examples import ruling_examples

OUT = Path(__file__).resolve().parent.parent / "examples" / "colossus-order"


# ==================================================================================================
# a rule-of-thumb player
# ==================================================================================================

class Bot:
    """Plays both sides of a Script.  ``style[p]`` is ``"gems"`` (keep gems face down in the Locus
    and win by Complete Declaration) or ``"raid"`` (attack the opponent's deck, and a gem-hoarding
    opponent's Locus)."""

    def __init__(self, script: Script, seed: int, style: dict[str, str]) -> None:
        self.s = script
        self.rng = random.Random(seed)
        self.style = style

    # -- helpers --------------------------------------------------------------------------------
    def legal(self, event: Event) -> bool:
        return self.s.check(event).legal

    def add(self, event: Event, note: str | None = None) -> None:
        self.s.add(event, note)

    def random_draw(self, pid: str) -> str:
        p = self.s.player(pid)
        return self.rng.choice(p.deck_top) if p.deck_top else p.deck_bottom[0]

    def face_down_gems(self, pid: str) -> list[int]:
        return [sl.id for sl in self.s.player(pid).locus if not sl.face_up and sl.card and POOL[sl.card].is_gem]

    # -- one step ---------------------------------------------------------------------------------
    def step(self) -> None:
        s = self.s
        st = s.state()
        h = s.head()
        if isinstance(h, Draw):
            if h.reason == "draw-step" and st.declaration_open and self.style.get(h.player) == "gems":
                slots = self.face_down_gems(h.player)
                if len(slots) >= 6:
                    self.add(E.CompleteDeclared(player=h.player, slots=slots[:6]),
                             "six face-down Gems in the Locus: Complete Declaration")
                    return
            self.add(E.CardDrawn(player=h.player, card=self.random_draw(h.player)))
        elif isinstance(h, Mulligan):
            p = s.player(h.player)
            heavy = [c for c in p.hand if POOL[c].locus_cost >= 4][:1]
            self.add(E.CardsReturned(player=h.player, cards=heavy))
        elif isinstance(h, Block):
            self.block(h.player)
        elif isinstance(h, Window):
            self.xplay(h.priority)
        elif isinstance(h, Reveal):
            p = s.player(h.player)
            cards = sorted(self.rng.sample(list(p.deck_top), h.count)) if len(p.deck_top) >= h.count else None
            if cards is None:
                ev = next(e for e in GAME.legal_events(st) if type(e) is E.CardsRevealed)
                cards = ev.cards
            self.add(E.CardsRevealed(player=h.player, cards=cards))
        elif isinstance(h, Capture):
            owner = s.player(h.owner)
            gems = sorted((c for c in owner.revealed if POOL[c].is_gem), key=lambda c: (not POOL[c].unique, c))
            self.add(E.GemsCaptured(player=h.player, cards=gems[: h.limit]),
                     "the attacker captures the revealed Gem" if gems[: h.limit] else None)
        elif isinstance(h, ReplaceLocus):
            hand = s.player(h.player).hand
            gems = [c for c in hand if POOL[c].is_gem]
            card = gems[0] if gems else sorted(hand, key=lambda c: -POOL[c].locus_cost)[0]
            self.add(E.LocusReplaced(player=h.player, card=card), f"a new face-down Locus card goes into slot {h.slot}")
        elif isinstance(h, DiscardDeclared):
            p = s.player(h.owner)
            junk = [sl.id for sl in p.locus if sl.id in h.slots and not POOL[sl.card].is_gem]
            pick = (junk + [x for x in h.slots if x not in junk])[:2]
            self.add(E.DeclarationDiscarded(player=h.chooser, slots=pick))
        elif isinstance(h, Declare):
            self.add(E.EffectDeclared(player=h.player, card=h.card))
        elif h is None and st.phase == "main":
            self.main(st.turn_player)
        else:  # pragma: no cover - the bot only meets the steps above
            raise AssertionError(f"bot cannot act on {h!r}")

    # -- decisions ----------------------------------------------------------------------------------
    def block(self, pid: str) -> None:
        s = self.s
        at = s.state().attack
        atk = s.stats(at.attacker)[0]
        options = []
        for f in s.player(pid).field:
            if f.on:
                d = s.stats(f.handle)[1] - f.damage
                options.append((d > atk, s.stats(f.handle)[0], f.handle))
        # block with a follower that survives the hit (the strongest), or chump-block a locus raid
        good = sorted((o for o in options if o[0]), reverse=True)
        if good:
            self.add(E.BlockDeclared(player=pid, blocker=good[0][2]), "the blocker survives the hit")
        elif at.target == "locus" and options and self.style.get(pid) == "gems":
            self.add(E.BlockDeclared(player=pid, blocker=sorted(options)[0][2]), "protecting a Locus Gem")
        else:
            self.add(E.BlockDeclined(player=pid))

    def xplay(self, pid: str) -> None:
        s = self.s
        st = s.state()
        me = s.player(pid)
        at = st.attack
        if at is not None and not st.chain and st.todo and isinstance(st.todo[0], Window):
            mine = at.player == pid
            if not mine and "dark-strike" in me.hand and s.stats(at.attacker)[0] >= 3:
                ev = E.ActionPlayed(player=pid, card="dark-strike")
                if self.legal(ev):
                    self.add(ev, "X-play: Action.Snap against the attacker")
                    return
            if not mine and at.blocker and "guardians-intervention" in me.hand and s.follower(at.blocker):
                blk = s.follower(at.blocker)
                if s.stats(at.blocker)[1] - blk.damage <= s.stats(at.attacker)[0]:
                    ev = E.ActionPlayed(player=pid, card="guardians-intervention", targets=[at.blocker])
                    if self.legal(ev):
                        self.add(ev, "X-play: Action.Snap to save the blocker")
                        return
        self.add(E.XPlayPassed(player=pid))

    def main(self, pid: str) -> None:
        s = self.s
        me = s.player(pid)
        opp = s.player(s.other(pid))
        style = self.style.get(pid, "raid")
        gems = [c for c in me.hand if POOL[c].is_gem]
        if not me.gem_set and gems and (style != "gems" or len(me.set_gems) < 3 or len(gems) > 1):
            pick = sorted(gems, key=lambda c: (not POOL[c].unique, c))
            for c in pick:
                if self.legal(E.CardSet(player=pid, card=c, zone="gem")):
                    self.add(E.CardSet(player=pid, card=c, zone="gem"))
                    return
        if not me.locus_set and me.hand:
            if gems and (style == "gems" or len(me.locus) < 4):
                card = sorted(gems, key=lambda c: (POOL[c].unique, c))[0]
            else:
                card = sorted(me.hand, key=lambda c: (-POOL[c].locus_cost, c))[0]
            ev = E.CardSet(player=pid, card=card, zone="locus")
            if self.legal(ev):
                self.add(ev)
                return
        plays = [e for e in GAME.legal_events(s.state()) if type(e) is E.FollowerPlayed]
        if plays:
            best = max(plays, key=lambda e: (POOL[e.card].locus_cost, POOL[e.card].attack, e.card))
            self.add(best)
            return
        for f in me.field:
            if not (f.on and not f.attacked and f.played_turn != s.state().turn):
                continue
            target: Any = "deck"
            hoarder = self.style.get(opp.id) == "gems"
            down = [sl.id for sl in opp.locus if not sl.face_up]
            if hoarder and down and self.rng.random() < 0.6:
                target = self.rng.choice(down)
            else:
                offs = [g for g in opp.field if not g.on]
                if offs and self.rng.random() < 0.3:
                    target = offs[0].handle
            self.add(s.attack_event(f.handle, target))
            return
        self.add(E.MainPhaseEnded(player=pid))

    def play(self, max_events: int = 3000) -> None:
        while self.s.state().result is None and len(self.s.log) < max_events:
            self.step()


def bot_match(seed: int, style: dict[str, str], decks: dict[str, Any]) -> Script:
    s = Script(decks=decks, opening=False)
    for p in (A, B):
        s.add(E.DeckShuffled(player=p))
    s.add(E.FirstPlayerDecided(player=A), "decided by rock-paper-scissors")
    bot = Bot(s, seed, style)
    bot.play()
    return s


WHITE_DECK = deck(WHITE, {"white-gem": 17, "heart-of-piadin": 3, "bastion-squire": 3, "shieldbearer-novice": 3,
                          "dawn-sparrowhawk": 3, "cloudmane-pegasus": 3, "temple-healer": 3, "spurring-griffin": 3,
                          "heroic-knight": 3, "ash": 2, "guardians-intervention": 3, "sky-lancer-captain": 2,
                          "rally-to-the-banner": 2})
BLACK_DECK = deck(BLACK, {"black-gem": 17, "eye-of-valden": 3, "grave-rat": 3, "bone-sentry": 3, "shade-bat-swarm": 3,
                          "nightveil-assassin": 3, "plague-bearer": 3, "vampire-count": 3, "dark-strike": 3,
                          "withering-curse": 3, "soul-harvest": 3, "morvane-the-hollow-queen": 3})
RED_DECK = deck("ember-forge-colossus", {"red-gem": 17, "ember-of-caoren": 3, "ember-imp": 3, "ashland-raider": 3,
                                         "flame-salamander": 3, "caoren-berserker": 3, "crimson-wyvern": 3,
                                         "lava-giant": 3, "warcry-drummer": 3, "flare-counter": 3, "stoke-the-flames": 3,
                                         "battle-frenzy": 3})


def features(s: Script) -> set[str]:
    """What a complete example shows (the README promises these)."""
    out: set[str] = set()
    for (e, ds), ruling in zip(s.log, s.rulings):
        t = type(e)
        if t is E.BlockDeclared:
            out.add("block")
        if t is E.ActionPlayed and ruling.rule == "CO-8.2":
            out.add("snap-in-xplay")
        if t is E.GemsCaptured and e.cards:
            out.add("deck-capture")
        if t is E.CompleteDeclared:
            out.add("declaration")
        for d in ds:
            if type(d) is E.BattleResolved:
                out.add(d.result)
            if type(d) is E.GameEnded:
                out.add("end:" + d.reason)
    return out


# ==================================================================================================
# illegal logs: a plausible prefix, then one broken rule on the last line
# ==================================================================================================

def opening(**kw: Any) -> Script:
    return Script(hands={A: ["bastion-squire", "dawn-sparrowhawk", "heroic-knight", "guardians-intervention"],
                         B: ["grave-rat", "bone-sentry", "dark-strike", "withering-curse"]}, **kw)


def through_turn_3() -> Script:
    s = opening()
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    s.play("bastion-squire")
    s.pass_window()
    s.end_turn()
    s.set_gem("black-gem")
    s.set_locus("black-gem")
    s.play("grave-rat")
    s.pass_window()
    s.play("bone-sentry")
    s.pass_window()
    s.end_turn()
    s.set_gem("white-gem")
    s.set_locus("white-gem")
    return s


def bad(s: Script, event: Event, note: str) -> Script:
    s.append_raw(event, note)
    return s


def illegal_examples() -> dict[str, Callable[[], Script]]:
    def attacker_not_ready() -> Script:
        s = through_turn_3()
        s.play("dawn-sparrowhawk")
        s.pass_window()
        return bad(s, s.attack_event(s.handle("dawn-sparrowhawk")), "Dawn Sparrowhawk was played this turn and cannot attack yet")

    def locus_short() -> Script:
        s = through_turn_3()
        return bad(s, E.FollowerPlayed(player=A, card="heroic-knight"), "Heroic Knight costs 4 Locus; alice has only 2 Locus cards")

    def gem_level() -> Script:
        s = opening()
        s.set_locus("white-gem")
        return bad(s, E.FollowerPlayed(player=A, card="dawn-sparrowhawk"), "Dawn Sparrowhawk needs 1 white gem; none is set yet")

    def second_gem() -> Script:
        s = opening()
        s.set_gem("white-gem")
        return bad(s, E.CardSet(player=A, card="white-gem", zone="gem"), "a second Gem set in the same turn")

    def second_locus() -> Script:
        s = opening()
        s.set_locus("white-gem")
        return bad(s, E.CardSet(player=A, card="heroic-knight", zone="locus"), "a second Locus card set in the same turn")

    def too_many_returned() -> Script:
        s = Script(opening=False)
        for p in (A, B):
            s.add(E.DeckShuffled(player=p))
        s.add(E.FirstPlayerDecided(player=A))
        for c in ["heroic-knight", "sky-lancer-captain", "ash", "white-gem", "white-gem", "white-gem", "bastion-squire"]:
            s.draw(c, A)
        for _ in range(7):
            s.draw(None, B)
        return bad(s, E.CardsReturned(player=A, cards=["heroic-knight", "sky-lancer-captain", "ash"]),
                   "the first player may return at most 2 cards (2013 rules)")

    def declaration_in_main() -> Script:
        s = opening()
        for _ in range(6):
            s.set_locus("white-gem")
            s.end_turn()
            s.end_turn()
        return bad(s, E.CompleteDeclared(player=A, slots=[1, 2, 3, 4, 5, 6]),
                   "Complete Declaration in the main phase: it is only allowed in the start phase, before the draw")

    def attack_on_follower() -> Script:
        s = through_turn_3()
        return bad(s, s.attack_event("F1", s.handle("bone-sentry")), "Bone Sentry is ON: only an OFF follower can be attacked")

    def snap_only() -> Script:
        s = through_turn_3()
        s.end_turn()
        s.set_gem("black-gem")
        s.set_locus("black-gem")
        s.end_turn()
        s.attack("F1")
        s.block(s.handle("bone-sentry"))
        s.pass_()
        return bad(s, E.ActionPlayed(player=B, card="withering-curse", targets=["F1"]),
                   "Withering Curse is not an Action.Snap and cannot be played in X-play")

    def unique_gem() -> Script:
        s = Script(hands={A: ["heart-of-piadin", "heart-of-piadin"]})
        s.set_gem("heart-of-piadin")
        s.end_turn()
        s.end_turn()
        return bad(s, E.CardSet(player=A, card="heart-of-piadin", zone="gem"), "a second ★Heart of Piadin★ among alice's set gems")

    def deck_size() -> Script:
        # the cards spelt out (not the filler of deck()), so cards added to the pool leave this file alone
        short = {"white-gem": 20, "ash": 3, "bastion-squire": 3, "blinding-radiance": 3, "cloudmane-pegasus": 3,
                 "dawn-sparrowhawk": 3, "frostwing-paladin": 3, "guardians-intervention": 3, "herald-of-the-dawn": 3,
                 "heroic-knight": 3, "oath-of-renewal": 2}
        match = msgspec.structs.replace(setup({A: deck(WHITE, short, size=49)}),
                                        note="alice's deck holds 49 cards besides the Colossus: one short")
        return Script(match=match, opening=False)

    def blocker_off() -> Script:
        s = through_turn_3()
        s.attack("F1")
        s.no_block()
        s.pass_window()
        s.reveal("black-gem")
        s.capture()
        s.end_turn()
        s.attack(s.handle("bone-sentry"))
        return bad(s, E.BlockDeclared(player=A, blocker="F1"), "Bastion Squire attacked last turn and is still OFF: it cannot block")

    def first_turn_draw() -> Script:
        s = opening()
        return bad(s, E.CardDrawn(player=A, card="white-gem"), "the first player does not draw on the first turn")

    def colossus_in_xplay() -> Script:
        s = through_turn_3()
        s.attack("F1")
        s.no_block()
        return bad(s, E.ColossusAbilityActivated(player=A, ability=0, targets=["F1"]),
                   "a Colossus ability cannot be activated during X-play")

    def not_in_deck() -> Script:
        s = opening()
        s.set_gem("white-gem")
        s.end_main()
        return bad(s, E.CardDrawn(player=B, card="ash"), "bob's deck holds no Ash")

    def draw_against_known_top() -> Script:
        blue = deck("tidal-spire-colossus", ["tideglass-augur", "reef-guard"])
        s = Script(hands={A: ["tideglass-augur"]}, decks={A: blue})
        s.set_gem("blue-gem")
        s.set_locus("blue-gem")
        s.play("tideglass-augur")
        s.pass_window()
        s.end_turn()
        s.end_turn()
        s.ability(s.handle("tideglass-augur"))
        s.pass_window()
        s.add(E.TopCardRevealed(player=A, card="reef-guard"), "Tideglass Augur reveals alice's top card: it stays on top")
        s.end_turn()
        s.end_main()
        return bad(s, E.CardDrawn(player=A, card="blue-gem"),
                   "alice draws a Blue Gem, but Reef Guard was revealed on top of her deck on turn 3")

    def returned_card_drawn_early() -> Script:
        one_knight = deck(WHITE, {"heroic-knight": 1, "bastion-squire": 3, "dawn-sparrowhawk": 3, "guardians-intervention": 3})
        s = opening(decks={A: one_knight}, returns={A: (["heroic-knight"], [])})
        s.end_turn()
        s.end_main()
        return bad(s, E.CardDrawn(player=A, card="heroic-knight"),
                   "alice draws the only Heroic Knight, which she returned to the bottom of her deck; the cards above it are not used up")

    def derived_mismatch() -> Script:
        s = through_turn_3()
        s.attack("F1", "deck")
        s.block(s.handle("bone-sentry"))
        s.pass_window()
        wrong = E.BattleResolved(player=A, attacker="F1", result="deck-hit", damage=1, capture=0)
        return bad(s, wrong, "the log states a deck hit, but the attack was blocked: the engine derives damage to the blocker")

    return {
        "illegal-CO-7.3-attacker-not-ready.jsonl": attacker_not_ready,
        "illegal-CO-5.1-locus-short.jsonl": locus_short,
        "illegal-CO-5.2-gem-level.jsonl": gem_level,
        "illegal-CO-4.1-second-gem-in-a-turn.jsonl": second_gem,
        "illegal-CO-4.2-second-locus-in-a-turn.jsonl": second_locus,
        "illegal-CO-2.4-too-many-returned.jsonl": too_many_returned,
        "illegal-CO-3.2-declaration-in-main-phase.jsonl": declaration_in_main,
        "illegal-CO-7.4-attack-on-an-on-follower.jsonl": attack_on_follower,
        "illegal-CO-9.3-non-snap-in-xplay.jsonl": snap_only,
        "illegal-CO-4.3-second-unique-gem.jsonl": unique_gem,
        "illegal-CO-1.2-deck-size.jsonl": deck_size,
        "illegal-CO-7.5-blocker-off.jsonl": blocker_off,
        "illegal-CO-3.4-first-player-draws-on-turn-1.jsonl": first_turn_draw,
        "illegal-CO-8.4-colossus-in-xplay.jsonl": colossus_in_xplay,
        "illegal-CO-2.5-card-not-in-deck.jsonl": not_in_deck,
        "illegal-CO-2.6-draw-against-known-top.jsonl": draw_against_known_top,
        "illegal-CO-2.6-returned-card-drawn-early.jsonl": returned_card_drawn_early,
        "illegal-LOG-2-derived-mismatch.jsonl": derived_mismatch,
    }


# ==================================================================================================
# the files
# ==================================================================================================

GEM_COMPLETE_SEED = 129
DECK_OUT_SEED = 0


def legal_examples() -> dict[str, Callable[[], Script]]:
    return {
        "legal-gem-complete.jsonl": lambda: bot_match(GEM_COMPLETE_SEED, {A: "gems", B: "raid"}, {A: WHITE_DECK, B: BLACK_DECK}),
        "legal-deck-out.jsonl": lambda: bot_match(DECK_OUT_SEED, {A: "raid", B: "raid"}, {A: RED_DECK, B: BLACK_DECK}),
    }


def render(s: Script) -> bytes:
    return s.lines()


def seat_examples(complete: bytes, long: bytes) -> dict[str, bytes]:
    """A seat's record of the complete match (CO-39: alice's, as ``adjudicator redact --as alice``
    writes it: bob's draws, returned and face-down Locus cards unknown, his deck list ``{}``), and
    alice's record of the ``long`` match that keeps bob's registered deck list, with a planted
    impossible reveal: at bob's first face-down Locus card after every copy of some card of his
    list is seen, the record names it."""
    from adjudicator.core.kernel.events import encode_line
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.verify import settle, start
    from adjudicator.games.colossus_order.unknowns import unknown

    from adjudicator.core.kernel.seats import redact_log

    record = list(redact_log(parse_log(complete), A))
    out = {"legal-seat-alice-gem-complete.jsonl": b"".join(encode_line(e) + b"\n" for e in record)}
    played = [e for _, e in parse_log(long).events]
    record = played[:1] + [GAME.redact(e, A) for e in played[1:]]  # bob's registered deck list kept
    state = start(GAME, record[0])[0]
    for i, e in enumerate(record[1:], 1):
        if type(e) is E.CardSet and e.player == B and unknown(e.card):
            bob = state.player(B)
            gone = [c for c in sorted(POOL.cards) if POOL[c].type not in ("colossus", "gem") and c not in bob.unseen
                    and any(c == x for x in bob.discard + tuple(f.card for f in bob.field))]
            if gone:
                planted = msgspec.structs.replace(e, card=gone[0], note=f"alice's record (bob's registered deck list): bob sets "
                                                  f"{gone[0]} face down, but every copy of his list is already seen (CO-39.2)")
                lines = record[:i] + [planted]
                out["illegal-CO-39.2-impossible-identity.jsonl"] = b"".join(encode_line(x) + b"\n" for x in lines)
                return out
        if e.kind != "X":
            state = settle(GAME, GAME.apply(state, e))[0]
    raise AssertionError("no card of bob's is fully accounted for in alice's record")


#: a generated match (the sample cards that look, reorder, move, reveal, mill and flip hidden cards)
#: in which both seats look at a hand and at a deck's top, a card goes from a deck to the Locus, a
#: flip and an attack turn a face-down card face up
PRIVATE_SEED = 96
#: its first events, then ben concedes (a complete match shorter than the complete examples, which
#: the viewers' tests pick as the longest)
PRIVATE_EVENTS = 330


def private_setup() -> E.MatchStarted:
    """Two legal decks holding every sample card that looks at, reveals, mills, flips or moves
    hidden cards (two gem colours each)."""
    from .co_scenarios import BLUE

    ann = deck(WHITE, {"black-gem": 10, "farsight-owl": 3, "unveiling-dawn": 3, "spying-raven": 3, "grave-tithe": 3})
    ben = deck(BLUE, {"red-gem": 10, "tidal-scrying": 3, "tideglass-augur": 3, "mistveil-keeper": 3, "buried-cache": 3,
                      "windcaller-adept": 3})
    return E.MatchStarted(game=GAME.id, players=["ann", "ben"], decks={"ann": ann, "ben": ben})


def private_example() -> dict[str, bytes]:
    """Ann's record (``redact --as ann``) of a generated match with every private-information event
    (CO-41 to CO-43) and the stated reveals of face-down cards she saw (CO-39.4, CO-39.5, CO-8.7)."""
    from adjudicator.core.kernel.events import encode_line
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.playout import playout, to_jsonl
    from adjudicator.core.kernel.seats import redact_log

    events, _ = playout(GAME, PRIVATE_SEED, max_events=PRIVATE_EVENTS, setup=private_setup())
    events.append(E.Conceded(player="ben", note="ben concedes"))
    record = list(redact_log(parse_log(to_jsonl(events)), "ann"))
    return {"legal-seat-ann-private-information.jsonl": b"".join(encode_line(e) + b"\n" for e in record)}


def generate() -> dict[str, bytes]:
    out = {name: render(make()) for name, make in {**legal_examples(), **illegal_examples()}.items()}
    out.update(ruling_examples("colossus-order", out["legal-gem-complete.jsonl"]))  # judges' rulings
    out.update(seat_examples(out["legal-gem-complete.jsonl"], out["legal-deck-out.jsonl"]))  # a seat's record (issue 11, CO-39)
    out.update(private_example())  # what each seat knows (issue 20, CO-41 to CO-43)
    return out


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in generate().items():
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT / name} ({len(data.splitlines())} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
