"""The independent Colossi audit, continued: the Environments, from the component list's words,
as properties over generated matches (see tests/test_audit_colossi.py for the ground rules)."""

from __future__ import annotations

from hypothesis import given, settings

from .colossi_audit_oracle import acolytes_at, controller, neighbours, setup_of, trace
from .colossi_scenarios import E
from .test_audit_colossi import SEEDS

#: Traits that change a Gold gain or kill on the side: a scoring is compared only without them
GOLDEN = {"miserly", "territorial", "extortionist", "blood-thirsty", "monolithic", "resolute", "vengeful"}


def _quiet(s) -> bool:
    return not any(GOLDEN & set(p.traits) or p.animal for p in s.players)


DRAWS = (E.CardDrawn, E.CardDiscarded, E.TraitTaken, E.TraitRevealed, E.TraitDiscarded)


def _scored(steps, k: int):
    """The position once the scoring of step ``k`` is over: its Loot's draws and Traits come first
    (decisions of their own), then the tile's effect."""
    j = k
    while j + 1 < len(steps) and type(steps[j + 1].event) in DRAWS:
        j += 1
    return steps[j].after


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS)
def test_the_environments_do_what_their_texts_say(seed: int) -> None:
    """Hallowed Ground: "pays the scorer two Gold for each of the scorer's Acolytes standing here";
    Moat: "The scorer earns one Gold per neighbouring space under their control, and takes one Gold
    from every player controlling a neighbouring space" (CL-24: at most what they have, by default);
    Treasure Trove: "Whenever a Banner is raised here ... three gold cubes are added here"; Deep
    Mines: "Three gold cubes appear here when the tile is revealed"; Mountaintop: "No Acolyte
    survives here" (nor with the Blood Beast, or any Beast under CL-13's option); Volcano: "Every Acolyte on this space or next to it dies"."""
    setup = setup_of(seed)
    _, steps = trace(seed, setup, max_events=1200)
    ids = list(setup.players)
    for k, stp in enumerate(steps):
        e, s0, s1 = stp.event, stp.before, stp.after
        for i, sp in enumerate(s1.spaces):
            kills = sp.tile == "mountaintop-of-the-giants" or "blood-beast" in sp.beasts or \
                (s1.options.beast_kills_on_space and bool(sp.beasts))  # CL-3.5, CL-13
            if kills and "stone-beast" not in sp.beasts and not any(type(t).__name__ == "Launch" for t in s1.todo):
                guarded = [q for q in sp.colossi if "protective" in s1.player(q).traits]  # Protective (CL-3.6)
                assert all(n == 0 or ids[j] in guarded for j, n in enumerate(sp.acolytes)), (i, sp)
        if type(e) is E.TileExplored and e.tile == "deep-mines":
            assert s1.spaces[e.space].gold >= 3
        if type(e) is E.BannerRaised and s0.spaces[e.space].tile == "treasure-trove":
            assert s1.spaces[e.space].gold == s0.spaces[e.space].gold + 3
        if type(e) is not E.BannerScored or e.keep or not _quiet(s0):
            continue
        sp = s0.spaces[e.space]
        me = e.player
        s1 = _scored(steps, k)
        gain = {q: s1.player(q).gold - s0.player(q).gold for q in ids}
        if sp.tile == "hallowed-ground":
            assert gain[me] == sp.gold + 2 * acolytes_at(s0, e.space, me), (gain, sp)
        elif sp.tile == "moat" and s0.options.forced_payment == "all-you-have":
            nb = neighbours(s0.options.board)[e.space]
            holders = [controller(s0, i) for i in sorted(nb)]
            pay = {q: min(s0.player(q).gold, sum(1 for h in holders if h == q)) for q in ids if q != me}
            mine = sum(1 for h in holders if h == me)
            # whether a payer pays once per space or once in all is the text's "every player": once each
            once = {q: min(s0.player(q).gold, 1) if q in holders else 0 for q in ids if q != me}
            assert gain[me] in (sp.gold + mine + sum(pay.values()), sp.gold + mine + sum(once.values())), \
                (gain, holders, sp)
            for q in ids:
                if q != me:
                    assert -gain[q] in (pay[q], once[q]), (q, gain, holders)
        elif sp.tile == "volcano":
            around = {e.space} | neighbours(s0.options.board)[e.space]
            for i in around:
                guarded = "stone-beast" in s1.spaces[i].beasts
                if not guarded and not any({"protective", "resurrecting", "necromancer", "reactive"} & set(p.traits)
                                           for p in s1.players):
                    assert not any(s1.spaces[i].acolytes), (i, s1.spaces[i])
