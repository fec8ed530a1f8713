"""What the replay service's API answers: one msgspec Struct per response document (the OpenAPI
schema is built from them)."""

from __future__ import annotations

from typing import Any

import msgspec

from adjudicator.core.kernel.scene import Scene

# -- the answers (the API's response documents) -------------------------------------------------------------------------------


class GameInfo(msgspec.Struct):
    id: str
    name: str


class ServiceInfo(msgspec.Struct):
    """What the service accepts: the registered games, the upload limit, illegal uploads."""

    version: str
    games: list[GameInfo]
    #: the largest upload accepted, in bytes
    max_upload: int
    #: whether an illegal log is stored (with its verdict) or refused
    allow_illegal: bool
    #: how many matches are stored
    matches: int
    #: whether uploads are accepted at all (only with a token: ``serve --upload-token``)
    uploads: bool = False


class MatchInfo(msgspec.Struct):
    """One stored match, as listed."""

    match_id: str
    game: str
    game_name: str
    players: list[str]
    verdict: str
    #: how many illegal events
    violations: int
    #: log events (1 = MatchStarted)
    events: int
    #: the result in words (``alice wins by gem-complete``; ``unfinished``)
    result: str
    outcome: dict[str, Any] | None
    source: str
    #: the hash of the last line of a sealed log (the hash chain's head); None: not sealed
    chain_head: str | None = None
    #: the card pool, board or island the match was checked against: ``kind``, ``id``, ``sha256``
    data: list[dict[str, str]] = []
    #: the match header (``MatchStarted.meta``: event, round, table, date, judge, ...); {} for none
    meta: dict[str, str] = {}


class EventInfo(msgspec.Struct):
    """One log event as the viewer lists it, with the adjudicator's ruling."""

    number: int
    line: int
    type: str
    #: the event kind (``D`` decision, ``R`` random outcome, ``X`` derived, ...)
    kind: str
    text: str
    #: ``legal``, ``illegal``, ``unchecked`` (accepted, not engine-checked), ``derived`` or
    #: ``undetermined`` (legal only if what the record leaves unknown is as ``condition`` says);
    #: or what a judge's ruling made of it: ``stands``, ``taken-back``, ``ruling`` (the JudgeRuling)
    mark: str
    verdict: str
    rule: str
    code: str
    message: str
    #: the consequences the rules forced after it
    derived: list[str]
    turn: int
    event: dict[str, Any]
    #: an undetermined ruling's condition on the unknown identities ("bob's hidden card is
    #: iron-wolf"): the event is legal if it holds, and followed as if it does; None otherwise
    condition: str | None = None
    #: the annotation written on the event (the envelope's ``note``); None: none
    note: str | None = None


class MatchEvents(msgspec.Struct):
    """One page of a match's events (``events`` from event number ``first`` on)."""

    match: MatchInfo
    #: numbers of the illegal events (of the whole match)
    violations: list[int]
    events: list[EventInfo]
    #: how many log events the match has
    total: int = 0
    #: the number of the first event of this page
    first: int = 1
    #: the ``from`` of the next page (None: this is the last page)
    next: int | None = None


class CardText(msgspec.Struct):
    """A card of the match's pool as the viewers show it (hover or select a card)."""

    id: str
    name: str
    text: str = ""
    #: short facts (``follower``, ``white``, ``locus 3``, ``3/2``)
    facts: list[str] = []


class Position(msgspec.Struct):
    """The position after event ``at`` from one viewpoint (``view`` None: the judge)."""

    match_id: str
    at: int
    events: int
    view: str | None
    players: list[str]
    turn: int
    scene: Scene
    #: what event ``at`` changed, as this viewpoint sees it
    changes: list[str]
    #: ids of the scene's cells, cards and pieces event ``at`` concerns (the viewer marks them)
    touched: list[str] = []
    #: how the event is marked (``legal``, ``illegal``, ...): an illegal one is drawn in red
    mark: str = ""
    #: the text of each card the scene shows by identity (``scene`` cards' ``card``), then of each
    #: card an unknown card (``possible``) can still be, by card id, from the match's own pool:
    #: name, text and short facts; none of a card this view cannot see
    cards: dict[str, CardText] = {}


class LegalEvent(msgspec.Struct):
    type: str
    text: str
    event: dict[str, Any]


class LegalEvents(msgspec.Struct):
    match_id: str
    at: int
    to_act: list[str]
    #: how many legal events there are (``events`` holds at most ``limit`` of them)
    count: int
    events: list[LegalEvent]
    outcome: str | None = None
    #: seen as a player (``as``): the legal events that name cards hidden from that player (an
    #: opponent's possible draws) are counted here, not listed (``count`` excludes them)
    hidden: int = 0


class VariationStep(msgspec.Struct):
    """One event of an analysis variation with its ruling and what followed from it."""

    type: str
    text: str
    verdict: str
    rule: str
    code: str
    message: str
    derived: list[str]
    event: dict[str, Any]
    #: an undetermined step's condition (the step is followed as if it holds); None otherwise
    condition: str | None = None


class Variation(msgspec.Struct):
    """Events tried from the position after event ``at``: each ruled on in turn (the first illegal
    one ends it), the position they lead to as a scene, and what is legal there."""

    match_id: str
    at: int
    view: str | None
    steps: list[VariationStep]
    #: how many of the steps were legal or undetermined (and applied)
    applied: int
    scene: Scene
    legal: LegalEvents


class ViolationInfo(msgspec.Struct):
    seq: int
    line: int
    rule: str
    code: str
    message: str


class UploadResult(msgspec.Struct):
    """What an upload did: ``status`` is ``stored``, ``already stored`` or ``refused``."""

    match_id: str
    status: str
    stored: bool
    verdict: str
    game: str
    events: int
    violations: list[ViolationInfo]
    #: the viewer page of the match (None when refused)
    url: str | None
