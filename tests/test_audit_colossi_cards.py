"""The independent Colossi audit, continued: the cards, from the component list's words (the
Curses and Gifts that pay Gold, the cards that move pieces, the spaces a card's text allows), as
properties over generated matches; see tests/test_audit_colossi.py for the oracle's ground rules."""

from __future__ import annotations

import random

from hypothesis import given, settings

from .colossi_audit_oracle import acolytes_at, check, controller, neighbours, setup_of, trace
from .colossi_scenarios import E
from .test_audit_colossi import SEEDS, _actions_positions


# == the Gold cards, from their texts ===============================================================

def _gift_gold(s, card: str, me: str) -> dict[str, int] | None:
    """What each player earns from a Curse or a Divine Gift whose text only pays Gold, from the
    component list's words and the seed's Control table (None: not such a card)."""
    nb = neighbours(s.options.board)
    ids = [p.id for p in s.players]
    out = {pid: 0 for pid in ids}
    if card in ("austerity", "concession", "haste", "poverty", "sacrifice", "totality"):
        out[me] = 5  # "You earn 5 Gold"
        return out
    for pid in ids:
        c = s.player(pid).colossus
        if card == "comradery":  # "whose Colossus shares its space with another Colossus earns 3"
            out[pid] = 3 if len(s.spaces[c].colossi) > 1 else 0
        elif card == "authority":  # "1 Gold for each opponent Acolyte sharing their Colossus's space"
            out[pid] = sum(acolytes_at(s, c, q) for q in ids if q != pid)
        elif card == "diplomacy":  # "1 Gold for each of their Acolytes on a space someone else controls"
            out[pid] = sum(acolytes_at(s, i, pid) for i in range(len(s.spaces))
                           if controller(s, i) not in (None, pid))
        elif card == "fortitude":  # "1 Gold for each controlled space next to their Colossus"
            out[pid] = sum(1 for i in nb[c] if controller(s, i) == pid)
        elif card == "solitude":  # "no Acolyte at all on or next to their Colossus's space earns 3"
            near = {c} | nb[c]
            out[pid] = 0 if any(acolytes_at(s, i, q) for i in near for q in ids) else 3
        elif card == "audacity":  # "2 Gold for each space they control that holds a Beast or borders one"
            beasts = {i for i, sp in enumerate(s.spaces) if sp.beasts}
            out[pid] = 2 * sum(1 for i in range(len(s.spaces)) if controller(s, i) == pid
                               and (i in beasts or nb[i] & beasts))
        else:
            return None
    return out


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_the_gold_cards_pay_what_their_texts_say(seed: int) -> None:
    """The Curses ("You earn 5 Gold"; Pity: "Another player of your choice earns 10 Gold and you earn
    5") and the Divine Gifts that pay Gold (Comradery, Authority, Diplomacy, Fortitude, Solitude,
    Audacity), computed from the position before the card with the seed's Control table; the
    persistent Curses stay in front of their player (CL-6.1)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=1200)
    for stp in steps:
        e = stp.event
        if type(e) is not E.CardPlayed:
            continue
        s0, s1 = stp.before, stp.after
        want = _gift_gold(s0, e.card, e.player)
        if e.card == "pity":
            want = {p.id: 0 for p in s0.players}
            want[e.player] += 5
            want[e.target] += 10
        if want is None:
            continue
        for p in s0.players:  # Miserly: "Every gain of Gold gives 1 more"
            if want[p.id] > 0 and "miserly" in p.traits:
                want[p.id] += 1
        got = {p.id: s1.player(p.id).gold - s0.player(p.id).gold for p in s0.players}
        assert got == want, (e.card, got, want)
        if e.card in ("austerity", "concession", "poverty", "sacrifice"):
            assert e.card in s1.player(e.player).curses
        if e.card == "totality":
            p = s1.player(e.player)
            assert p.acolytes == 10 and p.banners == 6 and not any(e.player in sp.banners for sp in s1.spaces)
        if e.card == "haste":
            rest_of_turn = [t for t in s1.todo if type(t).__name__ in ("Actions", "MoveBeast", "BannerChoice")
                            and t.player == e.player]
            assert s1.turn != s0.turn or not rest_of_turn, ("Haste: your turn is over at once", s1.todo[:3])


def _calm(s) -> bool:
    """Nothing but the card's words acts on the pieces: no Trait that guards, caps or kills
    (Protective, Miserly, Necromancer, a Beast form), no Sacrifice, no Stone or Blood Beast, no
    Mountaintop, Beasts that do not kill (the Traits' own reactions come after, as tasks)."""
    if s.options.beast_kills_on_space:
        return False
    if any(p.animal or {"protective", "miserly", "necromancer", "animalistic"} & set(p.traits) or
           "sacrifice" in p.curses for p in s.players):
        return False
    return not any(sp.tile == "mountaintop-of-the-giants" or {"stone-beast", "blood-beast"} & set(sp.beasts)
                   for sp in s.spaces)


def _steps_of(s, board: str) -> dict[int, dict[str, int]]:
    import json

    from .colossi_audit_oracle import DATA

    doc = json.loads((DATA / f"board-{board}.json").read_text())
    return {sp["id"]: dict(sp["neighbours"]) for sp in doc["spaces"]}


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_the_piece_cards_do_what_their_texts_say(seed: int) -> None:
    """Action cards, from the component list's words: Convene ("Every Acolyte next to your Colossus
    is drawn onto your Colossus's space"), Intimidate ("shoved one space further away; off the
    island means death"), Bolster ("one Acolyte from hand on every space that already holds one of
    your Acolytes"), Magnetize ("all Loot cubes of one space ... on your Colossus's space"), Replace
    ("Two Colossi ... trade places"), Teleport ("Put any Colossus on any space"), Pilfer ("Draw two
    Colossus cards"), Secure ("they go back to your hand and a Banner from your hand goes there")."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=1200)
    ids = list(setup.players)
    for k, stp in enumerate(steps):
        e, s0, s1 = stp.event, stp.before, stp.after
        if type(e) is not E.CardPlayed or not _calm(s0) or not _calm(s1):
            continue
        me = e.player
        c = s0.player(me).colossus
        nb = neighbours(s0.options.board)
        board = lambda s, i: tuple(acolytes_at(s, i, q) for q in ids)  # noqa: E731
        if e.card == "convene":
            want = tuple(sum(acolytes_at(s0, i, q) for i in nb[c] | {c}) for q in ids)
            assert board(s1, c) == want, (board(s1, c), want)
            assert all(board(s1, i) == (0,) * len(ids) for i in nb[c])
        elif e.card == "intimidate" and s0.options.board == "hex27":
            step = _steps_of(s0, s0.options.board)
            land: dict[int, list[int]] = {}
            dead = [0] * len(ids)
            for d, n in step[c].items():
                to = step[n].get(d)
                for j, q in enumerate(ids):
                    if to is None:
                        dead[j] += acolytes_at(s0, n, q)
                    else:
                        land.setdefault(to, [0] * len(ids))[j] += acolytes_at(s0, n, q)
            for n in nb[c]:
                assert board(s1, n) == (0,) * len(ids), (n, board(s1, n))
            for to, add in land.items():
                if s0.spaces[to].tile is None:
                    continue  # explored by the push (CL-29): its tile may kill
                assert board(s1, to) == tuple(a + b for a, b in zip(board(s0, to), add)), (to, add)
            for j, q in enumerate(ids):
                assert s1.player(q).acolytes >= s0.player(q).acolytes + dead[j]
        elif e.card == "bolster":
            mine = [i for i in range(len(s0.spaces)) if acolytes_at(s0, i, me) > 0]
            if s0.player(me).acolytes >= len(mine):
                for i in mine:
                    assert acolytes_at(s1, i, me) == acolytes_at(s0, i, me) + 1, i
                assert s1.player(me).acolytes == s0.player(me).acolytes - len(mine)
        elif e.card == "magnetize":
            a, b = s0.spaces[e.space], s0.spaces[c]
            if e.space != c:
                got = s1.spaces[c]
                assert (got.gold, got.blue, got.green) == (a.gold + b.gold, a.blue + b.blue, a.green + b.green)
                assert s1.spaces[e.space].loot == 0
        elif e.card == "replace":
            x, y = e.targets
            assert (s1.player(x).colossus, s1.player(y).colossus) == (s0.player(y).colossus, s0.player(x).colossus)
        elif e.card == "teleport":
            assert s1.player(e.target).colossus == e.space
        elif e.card == "pilfer":
            if len(s0.card_deck) + len(s0.card_top) >= 2:
                drawn = [x.event for x in steps[k + 1:k + 3]]
                assert all(type(d) is E.CardDrawn and d.player == me for d in drawn), drawn
        elif e.card == "secure":
            n = acolytes_at(s0, e.space, me)
            assert n >= 2 and acolytes_at(s1, e.space, me) == 0
            assert me in s1.spaces[e.space].banners
            assert s1.player(me).acolytes == s0.player(me).acolytes + n


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_a_cards_space_is_one_its_text_allows(seed: int) -> None:
    """CL-6.2, from the component list's words: Commandeer's space holds "an opponent's Banner";
    Magnetize's holds "Loot cubes"; Secure's has "two or more of your Acolytes"; Short Rest's holds
    "one of your Banners"; Teleport puts "any Colossus on any space"; Dominate only "as the first
    Action of a turn" (CL-6.3)."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    rng = random.Random(seed)
    positions = [(s, tp) for s, tp in _actions_positions(steps) if s.info.actions > 0 and not s.info.dominate]
    for s, tp in rng.sample(positions, min(15, len(positions))):
        p = s.player(tp)
        guarded = any("protective" in o.traits for o in s.players)
        for card in sorted(set(p.hand)):
            for i, sp in enumerate(s.spaces):
                want: bool | None = None
                if card == "commandeer" and not guarded and "stone-beast" not in sp.beasts:
                    want = p.banners > 0 and any(o != tp for o in sp.banners)
                elif card == "magnetize":
                    want = sp.loot > 0 and i != p.colossus
                elif card == "secure":
                    # (one Banner a space: not where one's own Banner stands already)
                    want = acolytes_at(s, i, tp) >= 2 and p.banners > 0 and tp not in sp.banners
                elif card == "short-rest":
                    want = tp in sp.banners
                if want is None:
                    continue
                r = check(s, E.CardPlayed(player=tp, card=card, space=i))
                assert r.legal == want, (card, i, sp, r)
                if not r.legal:
                    assert r.rule in ("CL-6.2", "CL-4.5"), r
            if card == "teleport":
                for q in s.players:
                    for i in rng.sample(range(len(s.spaces)), 5):
                        r = check(s, E.CardPlayed(player=tp, card=card, target=q.id, space=i))
                        assert r.legal == (i != q.colossus), (q.id, i, r)
            if card == "dominate":
                r = check(s, E.CardPlayed(player=tp, card=card))
                if s.info.actions < 4:  # (Actions left, counted down: one was used)
                    assert not r.legal and r.rule == "CL-6.3", r
            if card in ("pilfer", "convene", "bolster"):
                r = check(s, E.CardPlayed(player=tp, card=card, space=p.colossus))
                assert not r.legal and r.rule == "CL-6.2", r  # a field the card does not use


@settings(max_examples=8, deadline=None)
@given(seed=SEEDS)
def test_a_cards_player_or_trait_is_an_opponents(seed: int) -> None:
    """Pity: "Another player of your choice earns 10 Gold"; Steal: "Take a Trait an opponent has in
    play"; Vandalize: "An opponent's Trait of your choice is discarded" (CL-6.2): one's own is
    refused, an opponent's accepted."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=900)
    for s, tp in _actions_positions(steps):
        if s.info.actions <= 0 or s.info.dominate or s.info.borrowed:
            continue
        hand = set(s.player(tp).hand)
        for q in s.players:
            if "pity" in hand:
                r = check(s, E.CardPlayed(player=tp, card="pity", target=q.id))
                assert r.legal == (q.id != tp), (q.id, r)
            for card in ("steal", "vandalize"):
                if card in hand:
                    for t in q.traits:
                        r = check(s, E.CardPlayed(player=tp, card=card, trait=t))
                        assert r.legal == (q.id != tp), (card, q.id, t, r)
                        if not r.legal:
                            assert r.rule == "CL-6.2", r
