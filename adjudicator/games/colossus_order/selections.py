"""Distinct selections of cards and Locus slots, enumerated without walking every copy: the
candidates of a reveal from a deck (:func:`multiset_combinations`) and of a Complete Declaration
(:func:`declarations`)."""

from __future__ import annotations

from collections import Counter
from typing import Iterable, TypeVar

from .state import LocusSlot


T = TypeVar("T")


def declarations(locus: Iterable[LocusSlot]) -> list[list[int]]:
    """The slots of one Complete Declaration per distinct selection of 6 face-down Locus cards.

    Face-down slots holding the same card, equally known or unknown to the opponent, are
    interchangeable: declaring either leads to the same position up to slot numbers.  So each
    distinct selection (by card and ``known``) is listed once, naming the lowest-numbered slots
    that hold it; ``check`` accepts any other 6 face-down slots just the same.  Listing every 6 of
    the slots instead gives C(30, 6) = 593,775 declarations for a Locus of 30 cards."""
    groups: dict[tuple[str | None, bool], list[int]] = {}  # in Locus order (no set iteration)
    for sl in locus:
        if not sl.face_up:
            groups.setdefault((sl.card, sl.known), []).append(sl.id)
    ids = [sorted(g) for g in groups.values()]
    out = []
    for pick in multiset_combinations([i for i, g in enumerate(ids) for _ in g], 6):
        counts = Counter(pick)
        out.append(sorted(slot for i, n in counts.items() for slot in ids[i][:n]))
    return out


def multiset_combinations(cards: Iterable[T], k: int) -> Iterable[tuple[T, ...]]:
    """Every distinct sorted ``k``-card selection from the multiset ``cards``, in sorted order.

    ``sorted(set(combinations(cards, k)))`` gives the same, but walks every combination of the
    copies: for a deck of 600 cards and k = 3 that is 36 million tuples (a hang), against a few
    hundred distinct selections here."""
    counts = sorted(Counter(cards).items())

    def pick(i: int, left: int) -> Iterable[tuple[T, ...]]:
        if left == 0:
            yield ()
            return
        if i == len(counts):
            return
        card, have = counts[i]
        for n in range(min(have, left), -1, -1):
            for rest in pick(i + 1, left - n):
                yield (card,) * n + rest

    return pick(0, k)
