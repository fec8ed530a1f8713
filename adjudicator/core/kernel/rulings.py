"""Rulings: the answer the engine gives for one event in one position.

A :class:`Ruling` names a verdict, the rule id it rests on (``CO-7.3``, ``LOG-2``), a stable
namespaced code (``colossus-order/attacker-not-ready``) and a message that quotes the event and
the part of the position that decided it.  Rule code raises :class:`Illegal`; the game's
``check`` turns it into a ruling, so rule helpers can stop at the first broken rule.
"""

from __future__ import annotations

from typing import Literal

import msgspec

#: ``undetermined``: legal or not depending on what the log leaves unknown (a card recorded as
#: ``null`` from one seat); ``Ruling.condition`` says what would decide it
Verdict = Literal["legal", "illegal", "undetermined"]


class Ruling(msgspec.Struct, frozen=True, omit_defaults=True):
    verdict: Verdict
    rule: str
    code: str
    message: str
    #: False for events the engine accepted without being able to check their effect
    #: (declared effects of card text the engine does not model).
    engine_checked: bool = True
    #: what a judge's ruling made of this event (docs/log-format.md, "Judges' rulings"): ``stands``
    #: (an illegal event applied by a ruling), ``taken-back`` (the event a ruling took back),
    #: ``void`` (taken back with it), ``ruling`` (a JudgeRuling itself); None: no ruling concerns it
    judged: str | None = None
    #: ``undetermined``: the condition on the unknown identities that would make the event legal
    #: ("legal if Locus slot 3 is a Gem"); the event is followed as if it held
    condition: str | None = None
    #: ``illegal``: the condition of an earlier undetermined event this event settles against the
    #: record (a card revealed that the condition excluded); the verdict names both lines
    settles: str | None = None

    @property
    def legal(self) -> bool:
        return self.verdict == "legal"

    @property
    def allowed(self) -> bool:
        """Legal, or legal under a condition the log cannot decide: the position follows it."""
        return self.verdict != "illegal"


class Illegal(Exception):
    """Raised by rule helpers; carries everything a :class:`Ruling` needs."""

    def __init__(self, rule: str, code: str, message: str, *, settles: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.code = code
        self.message = message
        #: the condition of an earlier undetermined event this rejection settles (Ruling.settles)
        self.settles = settles

    def ruling(self) -> Ruling:
        return Ruling("illegal", self.rule, self.code, self.message, settles=self.settles)


class Undefined(Exception):
    """Raised by an engine's ``apply`` for an event that has no effect on the table it can define
    (a move to a square that does not exist): a judge's ruling cannot let such an event stand, and
    the reason (``str(exc)``) is what the verdict says (docs/log-format.md, "Judges' rulings")."""


class Undetermined(Exception):
    """Raised by rule helpers when the event is legal only if an unknown identity is what
    ``condition`` says.  Raise it only after every check that could reject the event outright."""

    def __init__(self, rule: str, code: str, message: str, condition: str) -> None:
        super().__init__(message)
        self.rule, self.code, self.message, self.condition = rule, code, message, condition

    def ruling(self) -> Ruling:
        return Ruling("undetermined", self.rule, self.code, self.message, condition=self.condition)


def legal(rule: str, code: str, message: str, *, engine_checked: bool = True) -> Ruling:
    return Ruling("legal", rule, code, message, engine_checked)


class Rule(msgspec.Struct, frozen=True):
    """One entry of a rulebook: an id cited by rulings and a short title."""

    id: str
    title: str


class Rulebook:
    """The rule ids a game can cite.  ``docs/rules/<game>.md`` documents every one of them."""

    def __init__(self, prefix: str, rules: dict[str, str]) -> None:
        self.prefix = prefix
        self.rules = dict(rules)

    def __contains__(self, rule_id: str) -> bool:
        return rule_id in self.rules

    def title(self, rule_id: str) -> str:
        return self.rules[rule_id]

    def ids(self) -> list[str]:
        return list(self.rules)


#: Rule ids of the log format itself (documented in docs/log-format.md).
CORE_RULES = Rulebook(
    "LOG",
    {
        "LOG-1": "The first event of a log is MatchStarted naming a registered game",
        "LOG-2": "An event the engine derives must match the engine's own derivation",
        "LOG-3": "No event may follow the end of the match",
        "LOG-4": "The engine failed on this event (an engine defect, reported, never hidden)",
        "LOG-5": "A judge's ruling names an earlier event of the log and says what can follow from it",
        "LOG-5.1": "In a seat's record, a judge's stands on an event whose irregularity turns on cards the record does not show is followed",
        "LOG-6": "A private-information event (a look, a reorder, a move between hidden zones) is one the game allows here",
    },
)
