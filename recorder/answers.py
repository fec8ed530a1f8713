"""What the recorder offers and answers: a numbered :class:`Choice` and the :class:`Answer` to an
entry (the session in :mod:`adjudicator.recorder.session`, the keys in
:mod:`adjudicator.recorder.keys`, the terminal app and the browser's page all read them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.core.kernel.events import Event
from adjudicator.core.kernel.rulings import Ruling

#: what confirms a match-ending entry
YES = ("y", "yes")


@dataclass(frozen=True)
class Choice:
    """One numbered choice: what is listed, and the event recorded when it is picked."""

    number: int
    label: str
    event: Event
    #: how many legal events it stands for (moves of one piece to one square by several paths)
    alternatives: int = 1
    #: the events recorded after ``event`` by the same pick: a compound entry (a Kolossus
    #: activation, its roll and its move), offered where the game's notation reads it as one
    then: tuple[Event, ...] = ()

    @property
    def events(self) -> list[Event]:
        """What picking it records, in order."""
        return [self.event, *self.then]

    @property
    def random(self) -> bool:
        return self.event.kind == "R"


@dataclass
class Answer:
    """What an entry led to."""

    ok: bool
    message: str
    #: the events appended to the log by this entry, and what the rules derived after them
    added: list[Event] = field(default_factory=list)
    derived: list[Event] = field(default_factory=list)
    #: the choices a few typed words matched (more than one: type more)
    candidates: list[Choice] = field(default_factory=list)
    ruling: Ruling | None = None
    #: a match-ending entry waits for ``y`` (nothing recorded yet)
    confirm: bool = False
    #: passes filled in after the entry (their players had no other choice)
    filled: list[Event] = field(default_factory=list)
    #: the pick opened an entry that the next pick (or typed entry) completes: its events are
    #: in the position shown and in the file, grouped with the next entry (:meth:`RecordSession.pick`
    #: with ``hold`` or ``chain``)
    held: bool = False
