"""Matches around one card (the audit of tests/co_audit.py): a deck holding three copies of it
(or its Colossus), and playout weights that draw it, play it and use its abilities whenever they
may, setting Gems and Locus cards to afford it (tests/test_audit_colossus_order.py runs one such
match per card of the sample pool with text).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from adjudicator.games.colossus_order import events as E

from .co_audit import CARDS, GAME, is_gem, random_deck, random_options, seat


def focus_setup(card: str, seed: int) -> E.MatchStarted:
    """A match around one card: three copies of it (or, for a Colossus, that Colossus) in a deck
    of its colours for the first-listed player, a random deck for the other."""
    rng = random.Random(seed)
    d = CARDS[card]
    colours = sorted({d["colour"], *(k for k in d.get("gem_level", {}) if k != "any")})
    deck = random_deck(rng, colours)
    cards = Counter(deck.cards)
    if d["type"] == "colossus":
        deck = E.DeckList(colossus=card, cards=dict(cards))
    elif cards[card] < 3:
        while cards[card] < 3:
            drop = rng.choice(sorted(c for c in cards if c != card and not is_gem(c) and cards[c]))
            cards[drop] -= 1
            cards[card] += 1
        deck = E.DeckList(colossus=deck.colossus, cards={c: n for c, n in sorted(cards.items()) if n})
    ruleset, opts = random_options(rng)
    return E.MatchStarted(game=GAME.id, players=["ann", "ben"], ruleset=ruleset, options=opts,
                          decks={"ann": deck, "ben": random_deck(rng)})


def focus_weight(card: str) -> Any:
    """Playout weights that play ``card`` (its ability, its Colossus abilities) whenever they may,
    and set Gems and Locus cards to afford it."""
    def weight(state: Any, e: Any) -> float:
        if isinstance(e, (E.FollowerPlayed, E.ActionPlayed)):
            return 80.0 if e.card == card else 1.0
        if isinstance(e, E.FollowerAbilityActivated):
            f = next((f for p in state.players for f in p.field if f.handle == e.follower), None)
            return 80.0 if f is not None and f.card == card else 1.0
        if isinstance(e, E.ColossusAbilityActivated):
            return 80.0 if seat(state, e.player).colossus == card else 1.0
        if isinstance(e, E.CardSet):
            return 0.01 if e.card == card else 40.0 if e.zone == "gem" else 0.5 if is_gem(e.card) else 4.0
        if isinstance(e, E.AttackDeclared):
            return 2.0 if e.target == "follower" else 0.5  # attacks to answer (attacker targets)
        if isinstance(e, E.CardDrawn):  # the card and Gems come early (draws are random outcomes)
            return 50.0 if e.card == card else 3.0 if is_gem(e.card) else 1.0
        return GAME.playout_weight(state, e)
    return weight
