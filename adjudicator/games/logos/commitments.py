"""LOGOS hidden picks as commitments (LG-3.4): the commitment a reveal opens, and the example
salt ``legal`` lists commitments with."""

from __future__ import annotations

import hashlib


def commitment_of(card: str, salt: str) -> str:
    """The commitment that ``PickRevealed(card, salt)`` opens: sha256 hex of ``<card>:<salt>``."""
    return hashlib.sha256(f"{card}:{salt}".encode("utf-8")).hexdigest()


def example_salt(round_no: int, player: str) -> str:
    """The salt ``legal`` uses for the commitments it lists (a real player keeps a secret one)."""
    return f"r{round_no}-{player}"
