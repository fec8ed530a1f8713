"""Generate the Colossi example logs in ``examples/colossi/``.

``python -m tests.colossi_make_examples`` rewrites the files; ``tests/test_colossi_examples.py``
checks that regenerating gives the committed files byte for byte.

The complete matches are seeded playouts of the engine's own legal events, weighted toward raising
Banners, resting and playing cards (``adjudicator/games/colossi/bot.py``), run to the 50-Gold end.
Each illegal log is a prefix of a legal match up to a position where the rule applies, followed by
one event that breaks exactly that rule; its ``note`` says what is wrong.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any, Callable

import msgspec

import adjudicator.games.colossi  # noqa: F401  (registers the game)
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.log import parse_log
from adjudicator.core.kernel.seats import redact_log
from adjudicator.core.kernel.verify import settle
from adjudicator.games.colossi import engine as Q
from adjudicator.games.colossi import events as E
from adjudicator.games.colossi.options import spawn_spaces
from adjudicator.games.colossi.state import Actions, Deploy, Draw, MoveBeast, PlaceStart, Rest

from .ruling_examples import ruling_examples

GAME = registry.get("colossi")
OUT = Path(__file__).resolve().parent.parent / "examples" / "colossi"
TWO = ["ann", "bob"]
FOUR = ["ann", "bob", "cid", "dee"]
SEEDS = {"legal-2p-to-50-gold.jsonl": (TWO, 21), "legal-4p-to-50-gold.jsonl": (FOUR, 3)}


def encode(events: list[Event]) -> bytes:
    enc = msgspec.json.Encoder()
    return b"".join(enc.encode(e) + b"\n" for e in events)


def match(players: list[str], seed: int, max_events: int = 6000,
          weight: Callable[[Any, Event], float] | None = None) -> tuple[list[Event], list[Any]]:
    """A weighted random legal match: the events (MatchStarted first) and the state after each
    (``weight``: the playout weights, the game's by default)."""
    weight = weight or GAME.playout_weight
    rng = random.Random(seed)
    setup = E.MatchStarted(game="colossi", players=players)
    state, _ = settle(GAME, GAME.initial_state(setup))
    events: list[Event] = [setup]
    states = [state]
    while GAME.outcome(state) is None and len(events) < max_events:
        options = GAME.legal_events(state)
        e = rng.choices(options, [weight(state, o) for o in options])[0]
        state, _ = settle(GAME, GAME.apply(state, e))
        events.append(e)
        states.append(state)
    return events, states


def legal_examples() -> dict[str, tuple[list[Event], list[Any]]]:
    return {name: match(players, seed) for name, (players, seed) in SEEDS.items()}


# == private information (issue 20: CL-41, CL-42) ==========================================================

def biased_weight(s: Any, e: Event) -> float:
    """The playout weights, leaning on what reveals, looks at or moves hidden cards: Soothsayer
    taken, stolen and used (on the Colossus deck most), Mimesis played, Banners on the Oasis."""
    t = type(e)
    if t is E.TraitTaken and e.trait in ("soothsayer", "mimicry"):
        return 200.0
    if t is E.Peeked:
        return 60.0 if e.deck == "cards" else 20.0
    if (t is E.CardPlayed and e.card == "mimesis") or (t in (E.TraitStolen, E.TraitBorrowed) and e.trait == "soothsayer"):
        return 200.0
    if t is E.BannerRaised and s.spaces[e.space].tile == "oasis":
        return 100.0
    return GAME.playout_weight(s, e)


def biased_match(players: list[str], seed: int) -> list[Event]:
    """A legal match played with :func:`biased_weight` (the seat property's and this example's)."""
    return match(players, seed, weight=biased_weight)[0]


#: a 4-player match in which bob's Soothsayer looks at the tiles ann saw on top of the tile deck (CardsLooked)
LOOKS = ("legal-4p-soothsayer-looks.jsonl", FOUR, 10, "bob")


# == illegal logs ==========================================================================================

def head(s: Any) -> Any:
    return s.todo[0] if s.todo else None


def not_controlled(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Deploy or s.player(h.player).banners < 1 or Q.banners_in_play(s, h.player) >= Q.banner_cap(s, h.player):
        return None
    for i, sp in enumerate(s.spaces):
        if sp.tile and Q.control(s, i) not in (None, h.player) and not sp.banners:
            return E.BannerRaised(player=h.player, space=i)
    return None


def road_without_own_piece(s: Any) -> Event | None:
    r = s.road
    if type(head(s)) is not Actions or r is None or r.open or r.why == "explored" or r.player != s.turn_player:
        return None
    for a in Q.B(s).adj[r.at]:
        if a not in r.visited:
            return E.Moved(player=r.player, piece=r.piece, space=r.at, to=a, road=True)
    return None


def fifth_action(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Actions or h.extra or s.info.actions != 0 or s.info.dominate or s.info.moves + s.info.cards != 4:
        return None
    c = s.player(h.player).colossus
    return E.Moved(player=h.player, piece="colossus", space=c, to=Q.B(s).adj[c][0])


def deploy_then_rest(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Deploy or Q.has(s, h.player, "nomadic") or s.info.dominate or not s.info.raised:
        return None
    mine = [i for i, sp in enumerate(s.spaces) if h.player in sp.banners and i not in s.info.raised]
    return E.BannerScored(player=h.player, space=mine[0]) if mine else None


def start_on_occupied(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not PlaceStart:
        return None
    taken = [i for i, sp in enumerate(s.spaces) if sp.tile == "start"]
    return E.StartPlaced(player=h.player, space=taken[0]) if taken else None


def card_not_in_deck(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Draw or s.turn < 3 or s.card_top:
        return None
    gone = sorted(set(Q.C().cards) - set(s.card_deck))
    return E.CardDrawn(player=h.player, card=gone[0]) if gone else None


def two_spaces(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Actions or s.info.actions < 1 or s.info.dominate:
        return None
    c = s.player(h.player).colossus
    b = Q.B(s)
    far = [i for i in range(b.size) if i != c and i not in b.adj[c] and any(i in b.adj[a] for a in b.adj[c])]
    return E.Moved(player=h.player, piece="colossus", space=c, to=far[0]) if far else None


def spawn_away(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Actions or s.info.actions < 1 or s.info.dominate or s.player(h.player).acolytes < 1 \
            or Q.acolytes_in_play(s, h.player) >= Q.acolyte_cap(s, h.player) or Q.has(s, h.player, "ludicrously-capacious"):
        return None
    ok = spawn_spaces(s, h.player)
    away = [i for i, sp in enumerate(s.spaces) if i not in ok and sp.tile]
    return E.AcolyteSpawned(player=h.player, space=away[0]) if away else None


def card_not_in_hand(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Actions or s.info.actions < 1 or s.info.dominate or s.info.cards:
        return None
    hand = s.player(h.player).hand
    if "pilfer" in hand:
        return None
    return E.CardPlayed(player=h.player, card="pilfer")


def second_banner(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Deploy or Q.has(s, h.player, "resolute") or s.player(h.player).banners < 1 \
            or Q.banners_in_play(s, h.player) >= Q.banner_cap(s, h.player):
        return None
    for i, sp in enumerate(s.spaces):
        if h.player in sp.banners and Q.control(s, i) == h.player:
            return E.BannerRaised(player=h.player, space=i)
    return None


def rest_skips(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Rest or h.done or sum(h.player in sp.banners for sp in s.spaces) < 2:
        return None
    return E.Passed(player=h.player)


def beast_two_spaces(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not MoveBeast:
        return None
    for bst, at in Q.beasts_on_board(s):
        b = Q.B(s)
        far = [i for i in range(b.size) if i != at and i not in b.adj[at] and s.spaces[i].tile]
        if far:
            return E.BeastMoved(player=h.player, beast=bst, to=far[0])
    return None


def out_of_turn(s: Any) -> Event | None:
    h = head(s)
    if type(h) is not Actions or s.info.acted:
        return None
    other = Q.from_seat(s, h.player)[1]
    c = s.player(other).colossus
    return E.Moved(player=other, piece="colossus", space=c, to=Q.B(s).adj[c][0])


ILLEGAL: dict[str, tuple[str, Callable[[Any], Event | None], str]] = {
    "illegal-CL-4.2-banner-on-a-space-not-controlled.jsonl":
        ("legal-2p-to-50-gold.jsonl", not_controlled, "a Banner on a space another player controls"),
    "illegal-CL-3.3-road-through-a-space-without-own-piece.jsonl":
        ("legal-2p-to-50-gold.jsonl", road_without_own_piece,
         "the piece entered a space holding none of its owner's pieces, so it cannot go on for free"),
    "illegal-CL-2.3-fifth-action.jsonl":
        ("legal-2p-to-50-gold.jsonl", fifth_action, "a move after the four Actions of the turn are used"),
    "illegal-CL-2.5-deploy-and-rest-in-one-turn.jsonl":
        ("legal-2p-to-50-gold.jsonl", deploy_then_rest, "scoring a Banner in a Deploy: Deploy and Rest in one turn need Dominate"),
    "illegal-CL-1.6-start-on-an-occupied-space.jsonl":
        ("legal-4p-to-50-gold.jsonl", start_on_occupied, "a Starting Environment on the space of another"),
    "illegal-CL-2.6-card-not-in-the-deck.jsonl":
        ("legal-2p-to-50-gold.jsonl", card_not_in_deck, "the Colossus deck holds no copy of this card any more"),
    "illegal-CL-3.1-move-two-spaces.jsonl":
        ("legal-2p-to-50-gold.jsonl", two_spaces, "a Colossus moves one space per step, not two"),
    "illegal-CL-3.4-spawn-away-from-the-colossus.jsonl":
        ("legal-4p-to-50-gold.jsonl", spawn_away, "an Acolyte is spawned on its Colossus's space"),
    "illegal-CL-6.1-card-not-in-hand.jsonl":
        ("legal-4p-to-50-gold.jsonl", card_not_in_hand, "the player has no Pilfer in hand"),
    "illegal-CL-4.3-second-banner-on-a-space.jsonl":
        ("legal-4p-to-50-gold.jsonl", second_banner, "the space already holds this player's Banner"),
    "illegal-CL-4.6-rest-leaves-banners-out.jsonl":
        ("legal-2p-to-50-gold.jsonl", rest_skips, "a Rest collects every Banner; this one stops before"),
    "illegal-CL-2.4-beast-moves-two-spaces.jsonl":
        ("legal-2p-to-50-gold.jsonl", beast_two_spaces, "the Move Beast step moves a Beast one space"),
    "illegal-CL-2.1-move-out-of-turn.jsonl":
        ("legal-4p-to-50-gold.jsonl", out_of_turn, "a move by a player whose turn it is not"),
}


def illegal_examples(legal: dict[str, tuple[list[Event], list[Any]]]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for name, (source, find, note) in ILLEGAL.items():
        events, states = legal[source]
        for n, st in enumerate(states):
            if GAME.outcome(st) is not None:
                break
            bad = find(st)
            if bad is None:
                continue
            bad = msgspec.structs.replace(bad, note=note)
            if GAME.check(st, bad).legal:
                continue
            out[name] = encode(events[: n + 1] + [bad])
            break
        else:  # pragma: no cover - the seeds are chosen so that every case occurs
            raise AssertionError(f"{name}: no position in {source} fits")
    # a wrong derived event: the log states the end of a turn with the wrong number
    events, states = legal["legal-2p-to-50-gold.jsonl"]
    n = next(i for i, e in enumerate(events) if type(e) is E.Passed and states[i - 1].todo
             and type(states[i - 1].todo[0]) is Deploy)
    wrong = E.TurnEnded(turn=states[n].turn + 7, player=states[n - 1].turn_player,
                        note="the turn that ends is not this number")
    out["illegal-LOG-2-wrong-turn-ended.jsonl"] = encode(events[: n + 1] + [wrong])
    # the set-up: five players
    out["illegal-CL-1.1-five-players.jsonl"] = encode([E.MatchStarted(
        game="colossi", players=["ann", "bob", "cid", "dee", "eve"], note="Colossi is for 2 to 4 players")])
    return out


# == a seat's record (issue 11, CL-40 / CL-2.7) ==============================================================

#: the seat's record of a complete match that verifies legal (ann's and bob's records of this match
#: are undetermined: a Trade's card given back that neither saw, CL-6.4)
SEAT = ("legal-4p-to-50-gold.jsonl", "cid")


def seat_record(events: list[Event], player: str) -> list[Event]:
    """The record ``player`` kept (what ``adjudicator redact --as`` writes)."""
    return list(redact_log(parse_log(encode(events), f"<match as {player}>"), player))


def impossible_reveal(events: list[Event], player: str) -> list[Event]:
    """``player``'s record up to an opponent's card played from a hand of unknown cards, that card
    replaced by one every copy of which the record shows elsewhere (CL-2.7)."""
    from adjudicator.games.colossi.unknowns import where

    record = seat_record(events, player)
    state, _ = settle(GAME, GAME.initial_state(record[0]))
    for n, e in enumerate(record[1:], start=1):
        if type(e) is E.CardPlayed and e.player != player and "?" in state.player(e.player).hand:
            gone = sorted(c for c in set(state.discard) if c not in state.unseen.cards
                          and sum(where(state, c, False).values()) == sum(1 for d in Q.C().deck if d == c))
            if gone:
                bad = E.CardPlayed(player=e.player, card=gone[0],
                                   note=f"every copy of {gone[0]} is already in the discard pile")
                if GAME.check(state, bad).verdict == "illegal":
                    return record[:n] + [bad]
        state, _ = settle(GAME, GAME.apply(state, e))
    raise AssertionError("no card played from an unknown hand")  # pragma: no cover


def seat_examples(legal: dict[str, tuple[list[Event], list[Any]]]) -> dict[str, bytes]:
    source, who = SEAT
    name, players, seed, looker = LOOKS
    looks = biased_match(players, seed)
    return {
        name: encode(looks),
        f"legal-seat-{looker}-{name[len('legal-'):]}": encode(seat_record(looks, looker)),
        f"legal-seat-{who}-4p-to-50-gold.jsonl": encode(seat_record(legal[source][0], who)),
        "illegal-CL-2.7-seat-impossible-card.jsonl": encode(impossible_reveal(legal["legal-2p-to-50-gold.jsonl"][0], "bob")),
    }


def generate() -> dict[str, bytes]:
    legal = legal_examples()
    out = {name: encode(events) for name, (events, _) in legal.items()}
    out.update(illegal_examples(legal))
    out.update(seat_examples(legal))
    out.update(ruling_examples("colossi", out["legal-2p-to-50-gold.jsonl"]))  # judges' rulings
    return out


def main(argv: list[str]) -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in sorted(generate().items()):
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT / name} ({len(data.splitlines())} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
