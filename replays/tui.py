"""The terminal replay viewer: a Textual app over a :class:`~replays.core.Replay`.

``adjudicator replay LOG|MATCH_ID [--at N] [--as PLAYER]`` opens it (see ``cli/replay.py``).
The screen shows the position drawn from the game's scene (:mod:`replays.terminal`), the event
list with a mark on each event (legal ✓, illegal ✗, not engine-checked ?, derived ·, undetermined ◇;
judges' rulings: stands !, taken back ↶, the ruling §), the selected event's ruling (an
undetermined one with its condition) and consequences, and what the event changed.  Generic over every
registered game: nothing here names one.

Keys: right/left one event, up/down one turn, Home/End, ``g`` go to event N, ``v`` cycle the
viewpoint (judge, then each player), ``n``/``p`` next/previous violation, undetermined ruling
or judge's warning (an event that stands or was taken back), ``/`` search event types, ``c``
select the next card of the position (its text from the match's pool in the card pane; an
unknown card ◇ shows what it can still be; Escape closes it), ``?`` help, ``q`` quit.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from adjudicator.core.kernel.rulings import CORE_RULES
from adjudicator.core.kernel.meta import header_line

from .core import ILLEGAL, UNDETERMINED, Replay, UnknownCard, unknown_cards
from .terminal import MARK_HINTS, MARKS, UNKNOWN, mark_text, scene_text

KINDS = {"D": "decision", "R": "random outcome", "X": "derived by the engine"}

HELP = """\
[b]adjudicator replay[/b]: step through a verified match

  [b]right[/b] / [b]left[/b]     the next / previous event
  [b]down[/b] / [b]up[/b]        the next turn / the start of this (or the previous) turn
  [b]Home[/b] / [b]End[/b]       the first / last event
  [b]g[/b]                go to event N (type the number, Enter)
  [b]v[/b]                change the viewpoint: the judge (everything), then each player
  [b]n[/b] / [b]p[/b]            the next / previous violation (an illegal event), undetermined
                   ruling or judge's warning (an event that stands or was taken back)
  [b]/[/b]                search event types (Enter with nothing repeats the last search)
  [b]c[/b]                the next card of the position: its text from the match's pool;
                   an unknown card [bold dark_orange]◇?N[/bold dark_orange]: the N cards it can still be
                   (Escape closes the card pane)
  [b]?[/b]                this help
  [b]q[/b]                quit

Marks: [green]✓[/green] legal  [bold red]✗[/bold red] illegal (skipped; the position stays as before it)  \
[yellow]?[/yellow] not engine-checked  [cyan]·[/cyan] derived by the engine
[bold dark_orange]◇[/bold dark_orange] undetermined: legal only if a card the record leaves unknown is what the condition says
Judges' rulings: [bold magenta]![/bold magenta] illegal but stands (a warning)  [magenta]↶[/magenta] taken back  \
[bold blue]§[/bold blue] the ruling

Press any key to close."""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: 96; height: auto; border: round $accent; padding: 1 2; background: $panel; }
    """

    def compose(self) -> ComposeResult:
        yield Static(HELP, id="help")

    def on_key(self, event) -> None:
        event.stop()
        self.dismiss(None)


class PromptScreen(ModalScreen[str | None]):
    """One line of input (go to event N, search): Enter answers, Escape cancels."""

    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical { width: 64; height: auto; border: round $accent; padding: 0 1; background: $panel; }
    PromptScreen Input { width: 100%; }
    """
    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, question: str, placeholder: str = "") -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            yield Input(placeholder=self.placeholder, id="prompt")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReplayApp(App[None]):
    """Step through one replay.  ``at`` opens at that event (default 1), ``view`` a player's view."""

    TITLE = "adjudicator replay"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary-background; color: $text; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #main { height: 1fr; }
    #position-box { width: 1fr; border: round $primary; }
    #position { width: auto; }
    #side { width: 40%; min-width: 44; max-width: 66; }
    /* a small terminal (80x24 and up): the position on top, full width, never squeezed; a short
       event list below it; the ruling in one line (the message line); no footer (? is help) */
    Screen.narrow #main { layout: vertical; }
    Screen.narrow #side { width: 100%; max-width: 100%; height: auto; }
    Screen.narrow #events { height: 4; min-height: 3; }
    Screen.narrow #ruling { display: none; }
    Screen.narrow #changes { display: none; }
    Screen.narrow Footer { display: none; }
    #events { height: 1fr; min-height: 8; border: round $primary; }
    #ruling { height: auto; max-height: 16; border: round $primary; }
    #changes { height: auto; max-height: 12; min-height: 4; border: round $primary; }
    #card { height: auto; max-height: 14; border: round $accent; display: none; }
    #card.shown { display: block; }
    #message { height: 1; padding: 0 1; color: $warning; }
    """
    BINDINGS = [
        Binding("right", "step(1)", "next"),
        Binding("left", "step(-1)", "back"),
        Binding("down", "turn(1)", "next turn"),
        Binding("up", "turn(-1)", "turn back"),
        Binding("home", "first", "first", show=False),
        Binding("end", "last", "last", show=False),
        Binding("g", "goto", "go to"),
        Binding("v", "viewpoint", "view"),
        Binding("n", "violation(1)", "next ✗"),
        Binding("p", "violation(-1)", "prev ✗"),
        Binding("slash", "search", "search"),
        Binding("c", "card", "card text"),
        Binding("escape", "close_card", "close card", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    cursor: reactive[int] = reactive(1, init=False)
    view: reactive[str | None] = reactive(None, init=False)

    def __init__(self, replay: Replay, *, at: int | None = None, view: str | None = None) -> None:
        super().__init__()
        self.replay = replay
        self.views: list[str | None] = [None, *replay.players()]
        if view not in self.views:
            raise ValueError(f"unknown player {view!r}")
        self.set_reactive(ReplayApp.cursor, replay.clamp(at or 1))
        self.set_reactive(ReplayApp.view, view)
        self.last_search = ""
        self.message = ""
        #: what the position panel shows (plain text) and the width it was drawn for
        self.position_plain = ""
        self.position_width = 0
        #: what the card pane shows: a pool card id, or an unknown card's ``zone#index``
        #: (:class:`~replays.core.UnknownCard`); None: the pane is closed
        self.card: str | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with ScrollableContainer(id="position-box", can_focus=False):
                yield Static(id="position")
            with Vertical(id="side"):
                yield Static(id="events")
                yield Static(id="ruling")
                yield Static(id="card")
                yield Static(id="changes")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#position-box").border_title = "position"
        self.query_one("#events").border_title = "events"
        self.query_one("#ruling").border_title = "ruling"
        self.query_one("#changes").border_title = "changes"
        self.query_one("#card").border_title = "card"
        self.refresh_all()

    def on_resize(self) -> None:
        self.call_after_refresh(self.refresh_all)

    def watch_cursor(self) -> None:
        self.message = ""
        self.refresh_all()

    def watch_view(self) -> None:
        self.message = ""
        self.refresh_all()

    # -- drawing -----------------------------------------------------------------------------
    #: below these sizes the layout stacks the position over a short event list
    NARROW_WIDTH, NARROW_HEIGHT = 110, 34

    @property
    def narrow(self) -> bool:
        return self.size.width < self.NARROW_WIDTH or self.size.height < self.NARROW_HEIGHT

    def refresh_all(self) -> None:
        if not self.is_mounted:
            return
        self.screen.set_class(self.narrow, "narrow")
        r, n = self.replay, self.cursor
        frame = r.frame(n, self.view)
        game = r.game
        who = "judge" if self.view is None else self.view
        violations = len(r.violations())
        title = Text(no_wrap=True, overflow="ellipsis")
        title.append(f"event {n}/{len(r)}", style="bold reverse")
        title.append(f"  turn {frame.turn}  view: ")
        title.append(who, style="bold")
        title.append(f"  {violations} violation{'s' if violations != 1 else ''}",
                     style="bold red" if violations else "green")
        unsure = sum(1 for f in r.frames if f.mark == UNDETERMINED)
        if unsure:
            title.append(f"  {unsure} undetermined", style=MARKS[UNDETERMINED][1])
        title.append("  ? help  ", style="dim")
        title.append(f"{game.name} ({game.id})", style="bold")
        title.append(f"  {r.title}")
        self.query_one("#title", Static).update(title)

        box = self.query_one("#position-box")
        width = max(40, (box.size.width or 100) - 4)
        scene = r.scene(n, self.view)
        pos = scene_text(scene, width)
        self.position_width, self.position_plain = width, pos.plain
        self.query_one("#position", Static).update(pos)
        box.border_subtitle = f"after event {n}, as {who}"
        if r.meta:  # the match header (MatchStarted.meta): where and when it was played
            box.border_title = f"position · {header_line(r.meta)}"

        self.query_one("#events", Static).update(self._event_list())
        self.query_one("#ruling", Static).update(self._ruling())
        self.query_one("#changes", Static).update(self._changes())
        self._card_pane()
        self.query_one("#message", Static).update(self.message or (self._ruling_line() if self.narrow else ""))

    def _event_list(self) -> Text:
        r, n = self.replay, self.cursor
        widget = self.query_one("#events", Static)
        height = max(3, (widget.size.height or 22))
        width = max(20, (widget.size.width or 64))
        total = len(r)
        start = max(1, min(n - height // 2, total - height + 1))
        end = min(total, start + height - 1)
        digits = len(str(total))
        frames = r.frames_for(self.view)  # the event list as this viewpoint saw it
        out = Text(no_wrap=True, overflow="ellipsis")
        for i in range(start, end + 1):
            f = frames[i - 1]
            line = Text(no_wrap=True, overflow="ellipsis")
            line.append_text(mark_text(f.mark))
            line.append(f" {i:>{digits}} ", style="dim")
            line.append(f.text, style="red" if f.mark == ILLEGAL else "")
            if f.note:  # an annotation (the envelope's note)
                line.append(f"  ✎ {f.note}", style="italic cyan")
            line.truncate(width, overflow="ellipsis")
            if i == n:
                line.stylize(Style(reverse=True, bold=True))
                line.pad_right(width - line.cell_len)
            out.append_text(line)
            if i != end:
                out.append("\n")
        return out

    def _ruling_line(self) -> Text:
        """The selected event's ruling in one line (the small layout has no ruling panel)."""
        f = self.replay.frame(self.cursor, self.view)
        sym, style = MARKS.get(f.mark, ("?", "yellow"))
        t = Text(no_wrap=True, overflow="ellipsis")
        t.append(f"{sym} {f.verdict} ", style=style)
        t.append(f"{f.rule} ", style="bold")
        t.append(f.message, style="red" if f.mark == ILLEGAL else "")
        if f.condition:
            t.append(f" (legal if {f.condition})", style=MARKS[UNDETERMINED][1])
        return t

    def _ruling(self) -> Text:
        r, n = self.replay, self.cursor
        f = r.frame(n, self.view)
        t = Text()
        t.append(f"event {f.number}", style="bold")
        t.append(f" · line {f.line} · turn {f.turn} · {KINDS.get(f.kind, f.kind)}\n", style="dim")
        t.append(f.text + "\n")
        if f.note:
            t.append(f"✎ {f.note}\n", style="italic cyan")
        sym, style = MARKS.get(f.mark, ("?", "yellow"))
        t.append(f"{sym} {f.verdict}", style=style)
        if f.mark in MARK_HINTS:
            t.append(f" ({MARK_HINTS[f.mark]})", style=style)
        t.append("  ")
        t.append(f.rule, style="bold")
        title = _rule_title(r, f.rule)
        if title:
            t.append(f" {title}", style="italic")
        t.append(f"\n[{f.code}]", style="dim")
        if f.message:
            t.append("\n" + f.message, style="bold red" if f.mark == ILLEGAL else "")
        if f.condition:
            t.append("\nlegal if ", style=MARKS[UNDETERMINED][1])
            t.append(f.condition, style="bold")
        if f.derived:
            t.append("\nthen:", style="dim")
            for d in f.derived:
                t.append("\n  · ", style="cyan")
                t.append(d)
        return t

    def _selectable(self) -> tuple[dict[str, dict], list[str], dict[str, UnknownCard]]:
        """The texts of this position's cards, what ``c`` cycles through (the cards shown by
        identity, then the unknown cards by ``zone#index``) and the unknown cards by key."""
        r = self.replay
        texts = r.cards(self.cursor, self.view)
        shown = {c.card for z in r.scene(self.cursor, self.view).zones for c in z.cards if c.card}
        unknown = {u.key: u for u in unknown_cards(r.scene(self.cursor, self.view))}
        return texts, [cid for cid in texts if cid in shown] + list(unknown), unknown

    def _card_pane(self) -> None:
        """The selected card's name, facts and text, or what an unknown card can still be (the
        pane closes when the card is gone from this position or this view)."""
        texts, order, unknown = self._selectable()
        if self.card not in order:
            self.card = None
        pane = self.query_one("#card", Static)
        pane.set_class(self.card is not None, "shown")
        if self.card is None:
            return
        t = Text()
        u = unknown.get(self.card)
        if u is not None:
            t.append(f"{UNKNOWN} unknown card", style=MARKS[UNDETERMINED][1])
            t.append(f"  {u.zone_label}, card {u.index + 1}\n", style="dim")
            t.append(f"can still be {len(u.possible)}:" if u.possible else "can be no card of the pool", style="italic")
            for cid in u.possible:
                info = texts.get(cid)
                t.append("\n  · ")
                t.append(info["name"] if info else cid, style="bold")
                if info:
                    t.append(f"  {cid}", style="dim")
        else:
            info = texts[self.card]
            t.append(info["name"], style="bold")
            t.append(f"  {info['id']}\n", style="dim")
            if info.get("facts"):
                t.append(" · ".join(info["facts"]) + "\n", style="italic")
            t.append(info.get("text") or "(no text)")
        pane.update(t)
        pane.border_subtitle = f"{order.index(self.card) + 1}/{len(order)} · c next · Esc close"

    def _changes(self) -> Text:
        lines = self.replay.changes(self.cursor, self.view)
        if not lines:
            return Text("(nothing visible changed)", style="dim")
        return Text("\n".join(lines))

    # -- actions -----------------------------------------------------------------------------
    def go(self, n: int) -> None:
        self.cursor = self.replay.clamp(n)

    def say(self, message: str) -> None:
        self.message = message
        self.query_one("#message", Static).update(message)

    def action_step(self, delta: int) -> None:
        self.go(self.cursor + delta)

    def action_turn(self, delta: int) -> None:
        r = self.replay
        self.go(r.next_turn(self.cursor) if delta > 0 else r.previous_turn(self.cursor))

    def action_first(self) -> None:
        self.go(1)

    def action_last(self) -> None:
        self.go(len(self.replay))

    def action_viewpoint(self) -> None:
        i = self.views.index(self.view)
        self.view = self.views[(i + 1) % len(self.views)]

    def action_violation(self, delta: int) -> None:
        r = self.replay
        found = r.next_violation(self.cursor) if delta > 0 else r.previous_violation(self.cursor)
        if found is None:
            self.say(f"no {'later' if delta > 0 else 'earlier'} violation"
                     + ("" if r.violations() else " (this match has none)"))
            return
        self.go(found)

    def action_goto(self) -> None:
        def answer(value: str | None) -> None:
            if value is None or not value.strip():
                return
            try:
                n = int(value.strip())
            except ValueError:
                self.say(f"go to: {value.strip()!r} is not an event number")
                return
            if not 1 <= n <= len(self.replay):
                self.say(f"go to: event {n} is outside the log (1-{len(self.replay)})")
                return
            self.go(n)

        self.push_screen(PromptScreen(f"Go to event (1-{len(self.replay)}):", str(self.cursor)), answer)

    def action_search(self) -> None:
        def answer(value: str | None) -> None:
            if value is None:
                return
            text = value.strip() or self.last_search
            if not text:
                return
            self.last_search = text
            r = self.replay
            found = r.search(text, self.cursor)
            wrapped = False
            if found is None:  # wrap around: from the first event
                found = 1 if text.lower() in r.frames[0].type.lower() else r.search(text, 1)
                wrapped = found is not None
            if found is None:
                self.say(f"search: no event type matches {text!r}")
                return
            self.go(found)
            if wrapped:
                self.say(f"search: {text!r} wrapped to the start")

        hint = f"last: {self.last_search}" if self.last_search else "e.g. AttackDeclared"
        self.push_screen(PromptScreen("Search event types:", hint), answer)

    def action_card(self) -> None:
        """Select the next card of the position whose text this view may read, or the next
        unknown card (wrapping)."""
        ids = self._selectable()[1]
        if not ids:
            self.say("no card of this position has a text to show")
            return
        self.card = ids[(ids.index(self.card) + 1) % len(ids)] if self.card in ids else ids[0]
        self._card_pane()

    def action_close_card(self) -> None:
        self.card = None
        self._card_pane()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())


def _rule_title(replay: Replay, rule: str) -> str:
    for book in (replay.game.rulebook, CORE_RULES):
        if rule in book:
            return book.title(rule)
    return ""


__all__ = ["ReplayApp", "HelpScreen", "PromptScreen"]
