"""``adjudicator record``'s terminal app (Textual): the position, the choices of whoever acts,
each with its key (``1``-``9``, ``a``-``z``: one key records it; a long list folded into groups,
``recorder/keys.py``; Enter alone records the default, marked ⏎), the match-ending entries
apart (``0``, then ``y``), ``+`` before a pick ("and then": it is held open, shown above the list, and
recorded with the next pick as one entry), the last events in the game's notation, and one entry line for typed
text (``/`` first where the first character is a key: a few words with completion, the
notation, ``undo``, ``note``, an event as JSON; ``rule stands|taken-back [reason]`` for a judge).
Every key goes through :class:`replays.record_keys.Keypad`, every entry through
:class:`replays.record.RecordSession`, which writes the log.
Everything shown that comes from the input or the rules (names, notes, rulings, help with
``[reason]``) is plain text, never Textual markup."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Input, Static

from adjudicator.core.kernel.meta import header_line, meta_of

from .answers import Answer
from .session import RecordSession
from .keys import CHAIN, ENDERS, Keypad
from adjudicator.replays.terminal import scene_text


class EntryLine(Input):
    """The entry line: on an empty line a key of the list picks at once (the app's keypad);
    any other key is typed."""

    async def _on_key(self, event: events.Key) -> None:
        app = self.app
        if isinstance(app, RecordApp) and event.character and event.is_printable and not self.value:
            if app.pressed(event.character):
                event.stop()
                event.prevent_default()
                return
        await super()._on_key(event)

    def action_delete_left(self) -> None:
        app = self.app
        if not self.value and isinstance(app, RecordApp) and app.pressed("backspace"):
            return
        super().action_delete_left()


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
        Binding("escape", "back", "close the group"),
        Binding("ctrl+q", "quit", "quit"),
    ]

    def __init__(self, session: RecordSession) -> None:
        super().__init__()
        self.session = session
        self.last: Answer | None = None
        self.keypad = Keypad(session)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """The app, until it quits; an entry the keys held open is then recorded as it is (a die
        the table saw is not lost with the window)."""
        try:
            return super().run(*args, **kwargs)
        finally:
            self.session.close()

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
        yield EntryLine(placeholder="a key picks; + first: and then; Enter: the default (⏎); / then words (right arrow "
                                    "completes), notation, undo, note, JSON", id="entry")

    def on_mount(self) -> None:
        self.query_one("#position-box").border_title = "position"
        self.query_one("#choices-box").border_title = "choices"
        self.query_one("#log-box").border_title = "log"
        self.refresh_all()
        self.query_one("#entry", Input).focus()

    # -- drawing -----------------------------------------------------------------------------------
    def title_line(self) -> Text:
        """The title line: the game, the header, how many events, the mode, the result, the file."""
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
        return title

    def refresh_all(self) -> None:
        s = self.session
        self.query_one("#title", Static).update(self.title_line())
        box = self.query_one("#position-box")
        width = max(40, (box.size.width or 100) - 4)
        self.query_one("#position", Static).update(scene_text(s.scene(), width))
        choices, enders = s.lists()
        default = s.default()
        keyed = self.keypad.lines()
        lines = Text()
        waiting = s.waiting() if s.confirming is None else None  # (a seat's view: what the table shows)
        if waiting:
            lines.append(waiting + "\n", style="italic")
        if s.confirming is not None:
            lines.append(f"{s.words(s.confirming)} ends the match: y confirms, anything else cancels\n", style="bold red")
        elif not choices:
            lines.append("the match is over" if s.over else "" if waiting else "no legal event: type an event as JSON (or its notation)")
        else:
            random = all(c.random for c in choices)
            lines.append("what happened at the table? (a random outcome)" if random
                         else f"to act: {', '.join(s.to_act())}", style="bold")
            if s.chainable() is None and not self.keypad.chained:  # (the chain key, where it may be pressed)
                lines.append(f"   {CHAIN}: and then (the next pick with the one after it: one entry)", style="dim")
            lines.append("\n")
            where = self.keypad.where()
            if where:
                back = "Escape: back" if self.keypad.opened else \
                    f"the next pick is held, recorded with the one after it; {CHAIN} again: off" if self.keypad.chained \
                    else "held: recorded with the next pick as one entry"
                lines.append(f"{where} ▸ ({back})\n", style="bold")
            for key, entry in keyed:
                lines.append(f"{key:>3}  ", style="bold")
                c = entry.choice
                if c is None:
                    lines.append(f"{entry.label} ▸ ({len(entry.members)})\n")
                    continue
                more = f"  (+{c.alternatives - 1} paths)" if c.alternatives > 1 else ""
                lines.append(f"{c.label}{more}")
                is_default = default is not None and c is default
                lines.append("  ⏎ Enter\n" if is_default else "\n", style="bold green" if is_default else "")
        if enders and s.confirming is None:
            lines.append(f"{ENDERS}: ends the match (then y): ", style="dim")
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
    def pressed(self, key: str) -> bool:
        """A key on the empty entry line, for the keypad: True when it picked, opened or closed."""
        p = self.keypad.press(key, "")
        if not p.consumed:
            return False
        if p.answer is not None:
            self.last = p.answer
        self.refresh_all()
        return True

    @on(Input.Submitted, "#entry")
    def _entry(self, event: Input.Submitted) -> None:
        p = self.keypad.press("enter", event.value)
        if p.answer is not None:
            self.last = p.answer
        event.input.value = ""
        self.refresh_all()

    def action_back(self) -> None:
        if self.keypad.press("escape", "").consumed:
            self.refresh_all()

    def action_undo(self) -> None:
        self.last = self.session.undo()
        self.refresh_all()
