"""``adjudicator record``'s terminal app (Textual): the position, the numbered choices of whoever
acts (Enter alone records the default, marked ⏎), the match-ending entries apart (confirmed with
``y``), the last events in the game's notation, and one entry line (a number, a few words with
completion, the notation, ``undo``, an event as JSON; ``rule stands|taken-back [reason]`` for a
judge).  Every entry goes through :class:`replays.record.RecordSession`, which writes the log.
Everything shown that comes from the input or the rules (names, notes, rulings, help with
``[reason]``) is plain text, never Textual markup."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from adjudicator.core.meta import header_line, meta_of

from .record import Answer, RecordSession
from .terminal import scene_text

#: most choices listed at once (the rest are reached by typing words or a number)
SHOWN = 60


class RecordApp(App[None]):
    """Record one match (see the module docstring)."""

    TITLE = "adjudicator record"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-background; color: $text; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #main { height: 1fr; }
    #position-box { width: 1fr; border: round $primary; }
    #position { width: auto; }
    #side { width: 45%; min-width: 40; }
    #choices-box { height: 2fr; border: round $accent; }
    #log-box { height: 1fr; border: round $primary; }
    #message { height: auto; max-height: 4; padding: 0 1; }
    #message.refused { color: $error; }
    #entry { dock: bottom; }
    """
    BINDINGS = [
        Binding("ctrl+z", "undo", "undo"),
        Binding("ctrl+q", "quit", "quit"),
    ]

    def __init__(self, session: RecordSession) -> None:
        super().__init__()
        self.session = session
        self.last: Answer | None = None
        #: the last entry was one digit recorded at once (the Enter after it is not an entry)
        self._at_once = False

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with ScrollableContainer(id="position-box", can_focus=False):
                yield Static(id="position")
            with Vertical(id="side"):
                with ScrollableContainer(id="choices-box", can_focus=False):
                    yield Static(id="choices")
                with ScrollableContainer(id="log-box", can_focus=False):
                    yield Static(id="log")
        yield Static(id="message")
        yield Input(placeholder="Enter: the default (⏎); a number, words (right arrow completes), notation, undo, JSON",
                    id="entry")

    def on_mount(self) -> None:
        self.query_one("#position-box").border_title = "position"
        self.query_one("#choices-box").border_title = "choices"
        self.query_one("#log-box").border_title = "log"
        self.refresh_all()
        self.query_one("#entry", Input).focus()

    # -- drawing -----------------------------------------------------------------------------------
    def refresh_all(self) -> None:
        s = self.session
        mode = f"seat {s.seat}" if s.seat else "judge's record" if s.judge else "full record"
        header = header_line(meta_of(s.record.setup))
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f"{s.game.name}", style="bold")
        if header:
            title.append(f"  [{header}]")
        title.append(f"  {len(s.record)} events  {mode}")
        if s.over:
            out = s.record.outcome
            title.append(f"  over: {out.result} {out.winner or ''} ({out.reason}); sealed", style="bold green")
        title.append(f"  {s.path}")
        self.query_one("#title", Static).update(title)
        box = self.query_one("#position-box")
        width = max(40, (box.size.width or 100) - 4)
        self.query_one("#position", Static).update(scene_text(s.scene(), width))
        choices, enders = s.lists()
        default = s.default()
        lines = Text()
        if s.confirming is not None:
            lines.append(f"{s.words(s.confirming)} ends the match: y confirms, anything else cancels\n", style="bold red")
        if not choices:
            lines.append("the match is over" if s.over else "no legal event: type an event as JSON")
        else:
            random = all(c.random for c in choices)
            lines.append("what happened at the table? (a random outcome)\n" if random
                         else f"to act: {', '.join(s.to_act())}\n", style="bold")
            for c in choices[:SHOWN]:
                more = f"  (+{c.alternatives - 1} paths)" if c.alternatives > 1 else ""
                lines.append(f"{c.number:>3}. ", style="bold")
                lines.append(f"{c.label}{more}")
                lines.append("  ⏎ Enter\n" if default is not None and c is default else "\n",
                             style="bold green" if default is not None and c is default else "")
            if len(choices) > SHOWN:
                lines.append(f"... and {len(choices) - SHOWN} more: type words or a number\n", style="dim")
        if enders:
            lines.append("ends the match (type it, then y): ", style="dim")
            lines.append("; ".join(c.label for c in enders) + "\n", style="dim")
        self.query_one("#choices", Static).update(lines)
        self.query_one("#choices-box").border_subtitle = f"{len(choices)} choices"
        self.query_one("#log", Static).update(Text("\n".join(s.log_words())))
        self.query_one("#entry", Input).suggester = SuggestFromList([c.label for c in choices], case_sensitive=False)
        msg = self.query_one("#message", Static)
        if self.last is not None:
            text = self.last.message
            if self.last.candidates:
                text += "\n" + "; ".join(f"{c.number}. {c.label}" for c in self.last.candidates[:8])
            msg.update(Text(text))
            msg.set_class(not self.last.ok, "refused")

    # -- entries ----------------------------------------------------------------------------------
    @on(Input.Changed, "#entry")
    def _typed(self, event: Input.Changed) -> None:
        """One digit with at most nine choices listed is the entry: recorded at once (an Enter
        pressed right after it out of habit is then not a second entry)."""
        if event.value:
            self._at_once = False
        if self.session.at_once(event.value):
            self.last = self.session.enter(event.value)
            self._at_once = True
            event.input.value = ""
            self.refresh_all()

    @on(Input.Submitted, "#entry")
    def _entry(self, event: Input.Submitted) -> None:
        if self._at_once and not event.value:
            self._at_once = False
            return
        self._at_once = False
        self.last = self.session.enter(event.value)
        event.input.value = ""
        self.refresh_all()

    def action_undo(self) -> None:
        self.last = self.session.undo()
        self.refresh_all()
