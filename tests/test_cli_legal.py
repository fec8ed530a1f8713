"""``legal`` groups paths by destination (``--paths`` lists all); ``--as`` on ``check`` and ``legal``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from adjudicator.cli.main import main
from adjudicator.core.kernel import registry
from adjudicator.core.kernel.log import read_log
from adjudicator.core.kernel.verify import position_at

EX = Path(__file__).resolve().parent.parent / "examples"
KO = str(EX / "kolossus" / "legal-chapter-3.jsonl")
CO = str(EX / "colossus-order" / "legal-gem-complete.jsonl")


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_legal_groups_paths_by_destination() -> None:
    whole = json.loads(cli("legal", KO, "--at", "32", "--json").output)
    grouped = whole["grouped"]
    assert len(grouped) < len(whole["events"])
    assert sum(g["alternatives"] for g in grouped) == len(whole["events"])
    # one line per destination: the same (from, to) never twice
    ends = [(g["event"]["path"][0], g["event"]["path"][-1]) for g in grouped if g["event"]["type"] == "MiniatureMoved"]
    assert len(ends) == len(set(ends))
    text = cli("legal", KO, "--at", "32").output.splitlines()
    assert f"{len(whole['events'])} legal events; {len(grouped)} shown" in text[0]
    assert len(text) == 1 + len(grouped)
    every = cli("legal", KO, "--at", "32", "--paths").output.splitlines()
    assert len(every) == 1 + len(whole["events"])


def test_legal_as_a_player_hides_what_they_cannot_see() -> None:
    log = read_log(CO)
    game = registry.get("colossus-order")
    # find a position where the opponent's draw is among the legal events
    for at in range(2, 60):
        st = position_at(log, at).state
        evs = game.legal_events(st)
        draws = [e for e in evs if type(e).__name__ == "CardDrawn"]
        if draws:
            break
    else:
        raise AssertionError("no draw in the first 60 events")
    drawer = draws[0].player
    other = next(p for p in game.players(st) if p != drawer)
    judge = json.loads(cli("legal", CO, "--at", str(at), "--json").output)
    seen = json.loads(cli("legal", CO, "--at", str(at), "--as", other, "--json").output)
    assert seen["hidden"] >= len(draws) and len(seen["events"]) == len(judge["events"]) - seen["hidden"]
    assert not any(e["type"] == "CardDrawn" for e in seen["events"])
    mine = json.loads(cli("legal", CO, "--at", str(at), "--as", drawer, "--json").output)
    assert mine["hidden"] == 0
    r = cli("legal", CO, "--at", str(at), "--as", "nobody")
    assert r.exit_code == 2 and "unknown player 'nobody'" in r.output
    # check --as: a ruling about the opponent's hidden draw does not name the card
    ev = json.dumps({"type": "CardDrawn", "player": drawer, "card": draws[0].card})
    r = cli("check", CO, "--at", str(at), "--event", ev, "--as", other)
    assert r.exit_code == 0 and draws[0].card not in r.output and f"what {other} cannot see" in r.output
    r = cli("check", CO, "--at", str(at), "--event", ev, "--as", drawer)
    assert r.exit_code == 0


def test_state_never_cuts_colossi_tile_names() -> None:
    out = cli("state", str(EX / "colossi" / "legal-2p-to-50-gold.jsonl"), "--at", "30").output
    assert "Starting Environment of ann" in out and "Starting Environment of an " not in out


def test_legal_as_a_seat_of_an_open_game_lists_everything() -> None:
    """Kolossus hides nothing: a seat is shown every legal event, the other warbands' too."""
    from adjudicator.core.kernel import position as positions, registry
    from adjudicator.core.kernel.playout import playout
    from adjudicator.core.kernel.verify import settle

    g = registry.get("kolossus")
    events, _ = playout(g, 3, max_events=60, with_derived=True)
    s = g.initial_state(events[0])
    for e in events[1:]:
        s = g.apply(s, e)
    s, _ = settle(g, s)
    legal = g.legal_events(s)
    for seat in g.players(s):
        assert positions.seen_legal(g, s, legal, seat) == (legal, 0)
