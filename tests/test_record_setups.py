"""Set-ups without JSON (issue 30): plain-text deck lists (adjudicator/core/services/decklist.py), TOML
wherever JSON is, ``record --sample-setup``, a tournament table as a match's set-up; and the
done-when of the issue: a full Colossus Order match recorded from two plain-text deck lists with
no JSON typed, through ``adjudicator record --deck ... --script`` as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

import adjudicator
from adjudicator.core.services.decklist import card_names, deck_list_text, parse_deck_list
from adjudicator.core.kernel.errors import LogError
from benchmarks.keystrokes import record_match
from adjudicator.cli.main import main

DECK_GAMES = ("colossus-order", "logos")


def run(*args: str, input: str = "") -> object:
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("gid", DECK_GAMES)
@pytest.mark.parametrize("seed", range(12))
def test_a_deck_list_in_plain_text_reads_back_as_the_set_ups_deck(gid, seed):
    """Property over generated set-ups: every deck written as a player writes it (names, counts)
    reads back as the same deck value; ids, ``x`` counts, comments and case are read too."""
    g = adjudicator.game(gid)
    decks = msgspec.to_builtins(g.sample_setup(seed).decks)
    names = card_names(g)
    for deck in decks.values():
        text = deck_list_text(g, deck)
        assert "{" not in text and parse_deck_list(text, g) == deck
        # the same list as ids, counts after the card, upper case, with comments
        lines = []
        for line in text.splitlines():
            key, colon, rest = line.partition(": ")
            if colon:
                lines.append(line)
                continue
            n, _, name = line.partition(" ")
            cid = next(c for c, nm in names.items() if nm == name)
            lines.append(f"{cid.upper()} x{n}   # {name}")
        assert parse_deck_list("# my list\n\n" + "\n".join(lines) + "\n", g) == deck


def test_a_deck_list_typo_names_the_file_the_line_and_the_closest_card(tmp_path):
    g = adjudicator.game("colossus-order")
    with pytest.raises(LogError) as exc:
        parse_deck_list("colossus: Colossus of the Dawn Bastion\n3 Heroic Knigt\n", g, path="alice.txt")
    assert exc.value.render() == "alice.txt:2: card: no card 'Heroic Knigt' in this pool: did you mean 'Heroic Knight'?"
    # the colossus is the one card of its type, or named on a line of its own
    with pytest.raises(LogError, match="which card is the colossus"):
        parse_deck_list("3 Heroic Knight\n", g)
    deck = tmp_path / "bob.txt"
    deck.write_text("1 Colossus of the Dawn Bastion\n50 Heroic Knigth\n")
    r = run("record", str(tmp_path / "m.jsonl"), "--game", "colossus-order", "--players", "alice,bob",
            "--deck", f"bob={deck}", "--script", "-")
    assert r.exit_code == 2 and f"{deck}:2: card: no card 'Heroic Knigth'" in r.output and "Heroic Knight" in r.output
    assert "Traceback" not in r.output and not (tmp_path / "m.jsonl").exists()
    r = run("record", str(tmp_path / "m.jsonl"), "--game", "kolossus", "--players", "a,b", "--deck", f"a={deck}")
    assert r.exit_code == 2 and "kolossus has no deck lists" in r.output


def test_a_full_colossus_order_match_from_two_plain_text_deck_lists_without_json(tmp_path):
    """The done-when of issue 30: two players' deck lists as they write them, the match typed
    into ``record --script`` as numbers, Enter and words; not one character of JSON."""
    g = adjudicator.game("colossus-order")
    setup = g.sample_setup(3)
    lists = {}
    for player, deck in msgspec.to_builtins(setup.decks).items():
        f = tmp_path / f"{player}.txt"
        f.write_text(f"# {player}'s deck\n" + deck_list_text(g, deck).replace("colossus: ", "1 "))
        lists[player] = f
    # the entries a person types for a generated match (the table's), found on a rehearsal
    rehearsal = record_match(g, 3, str(tmp_path))
    typed = rehearsal["lines"]
    assert rehearsal["over"]
    assert typed and not any(t.lstrip().startswith(("{", "[")) for t in typed)
    log = tmp_path / "match.jsonl"
    r = run("record", str(log), "--game", "colossus-order", "--players", ",".join(setup.players),
            *[x for p, f in lists.items() for x in ("--deck", f"{p}={f}")], "--meta", "event=Club night",
            "--script", "-", input="\n".join(typed) + "\n")
    assert r.exit_code == 0, r.output[-2000:]
    assert "is sealed" in r.output
    played = adjudicator.read_log(rehearsal["path"])
    back = adjudicator.read_log(log)
    assert back.setup.decks == setup.decks
    assert [msgspec.structs.replace(e, prev=None) for e in back.events[1:]] == \
        [msgspec.structs.replace(e, prev=None) for e in played.events[1:]]
    v = back.verify()
    assert v.verdict == "legal" and v.outcome is not None and v.chain_head


@pytest.mark.parametrize("gid", ["colossus-order", "logos", "kolossus", "colossi"])
def test_sample_setup_prints_a_toml_set_up_that_record_reads(tmp_path, gid):
    r = run("record", "--sample-setup", gid)
    assert r.exit_code == 0 and f'game = "{gid}"' in r.output
    f = tmp_path / "setup.toml"
    f.write_text(r.output)
    log = tmp_path / "m.jsonl"
    r = run("record", str(log), "--setup", f"@{f}", "--script", "-")
    assert r.exit_code == 0, r.output
    started = adjudicator.read_log(log).setup
    assert started == adjudicator.game(gid).sample_setup(0)
    # TOML inline, and JSON in a file, are read the same way
    log2 = tmp_path / "n.jsonl"
    j = tmp_path / "setup.json"
    j.write_text(json.dumps({k: v for k, v in msgspec.to_builtins(started).items() if k != "type"}))
    assert run("record", str(log2), "--setup", f"@{j}", "--script", "-").exit_code == 0
    assert adjudicator.read_log(log2).setup == started


def test_a_tournament_table_is_the_set_up(tmp_path):
    """``record --manifest M --round R --table T``: the table's players, the lists they
    registered (inline, or a deck file), the pool, and the header."""
    g = adjudicator.game("colossus-order")
    decks = msgspec.to_builtins(g.sample_setup(4).decks)
    (tmp_path / "decks").mkdir()
    (tmp_path / "decks" / "bob.toml").write_text(
        f'colossus = "{decks["p2"]["colossus"]}"\n[cards]\n' + "".join(f'"{c}" = {n}\n' for c, n in decks["p2"]["cards"].items()))
    ann = decks["p1"]
    (tmp_path / "m.toml").write_text(
        'name = "Spring Open"\ngame = "colossus-order"\npool = "sample"\n\n'
        '[[players]]\nid = "ann"\ndeck = { colossus = "' + ann["colossus"] + '", cards = { '
        + ", ".join(f'"{c}" = {n}' for c, n in ann["cards"].items()) + " } }\n\n"
        '[[players]]\nid = "bob"\ndeck_file = "decks/bob.toml"\n\n'
        '[[rounds]]\nround = 2\n\n[[rounds.tables]]\ntable = 7\nplayers = ["ann", "bob"]\n')
    log = tmp_path / "r2-t7.jsonl"
    r = run("record", str(log), "--manifest", str(tmp_path / "m.toml"), "--round", "2", "--table", "7", "--script", "-")
    assert r.exit_code == 0, r.output
    s = adjudicator.read_log(log).setup
    assert s.players == ["ann", "bob"] and s.meta == {"event": "Spring Open", "round": "2", "table": "7"}
    assert msgspec.to_builtins(s.decks) == {"ann": ann, "bob": decks["p2"]}
    r = run("record", str(tmp_path / "x.jsonl"), "--manifest", str(tmp_path / "m.toml"), "--round", "2", "--table", "8")
    assert r.exit_code == 2 and "no table 8 in round 2" in r.output
    r = run("record", str(tmp_path / "x.jsonl"), "--manifest", str(tmp_path / "m.toml"))
    assert r.exit_code == 2 and "--round R and --table T" in r.output



def test_logos_records_from_two_plain_text_deck_lists_and_names_a_typo(tmp_path):
    """LOGOS as Colossus Order: ``record --deck PLAYER=FILE`` reads a deck list in card names (ids,
    any case, ``2x`` counts and comments too) as the set-up's deck; a typo is the file, the line
    and the closest name, exit 2, and no log is written."""
    g = adjudicator.game("logos")
    setup = g.sample_setup(5)
    names = card_names(g)
    files = {}
    for k, (player, deck) in enumerate(setup.decks.items()):
        lines = [f"# {player}'s list"]
        for i, (cid, n) in enumerate(deck.items()):
            lines.append(f"{n}x {cid}" if (i + k) % 3 == 0 else f"{n} {names[cid].upper() if i % 2 else names[cid]}")
        files[player] = tmp_path / f"{player}.txt"
        files[player].write_text("\n".join(lines) + "\n")
    log = tmp_path / "m.jsonl"
    r = run("record", str(log), "--game", "logos", "--players", ",".join(setup.players),
            *[x for p, f in files.items() for x in ("--deck", f"{p}={f}")], "--option", "picks=open", "--script", "-")
    assert r.exit_code == 0, r.output
    assert {p: dict(sorted(d.items())) for p, d in adjudicator.read_log(log).setup.decks.items()} == \
        {p: dict(sorted(d.items())) for p, d in setup.decks.items()}
    p2 = setup.players[1]
    text = files[p2].read_text().splitlines()
    k, line = next((k, ln) for k, ln in enumerate(text) if ln[:1].isdigit() and "x " not in ln)
    count, name = line.split(" ", 1)
    text[k] = f"{count} {name[:-2]}{name[-1]}{name[-2]}"  # two letters swapped
    files[p2].write_text("\n".join(text) + "\n")
    r = run("record", str(tmp_path / "n.jsonl"), "--game", "logos", "--players", ",".join(setup.players),
            *[x for p, f in files.items() for x in ("--deck", f"{p}={f}")], "--script", "-")
    assert r.exit_code == 2 and f"{files[p2]}:{k + 1}: card: no card" in r.output, r.output
    assert "did you mean" in r.output and "Traceback" not in r.output and not (tmp_path / "n.jsonl").exists()


@pytest.mark.parametrize("gid", ["logos", "kolossus", "colossus-order", "colossi"])
def test_a_text_form_header_is_a_set_up_file(tmp_path, gid):
    """``record --setup @FILE`` reads a match's text-form header (tags in words, deck sections in
    names: docs/record.md), typed as a scorekeeper types it; a typo names the file and its line."""
    from adjudicator.cli.convert import to_text
    from adjudicator.core.kernel.playout import to_jsonl

    g = adjudicator.game(gid)
    setup = g.sample_setup(2)
    text = to_text(to_jsonl([setup]), "s.jsonl")
    assert "[game " in text and not any(ln.startswith(("[players ", "[decks ", "[seats ")) for ln in text.splitlines())
    header = tmp_path / "header.txt"
    header.write_text("# typed at the table\n" + text)
    log = tmp_path / "m.jsonl"
    r = run("record", str(log), "--setup", f"@{header}", "--script", "-")
    assert r.exit_code == 0, r.output
    assert adjudicator.read_log(log).setup == setup
    lines = header.read_text().splitlines()
    k = next((i for i, ln in enumerate(lines) if ln[:1].isdigit()), None)
    if k is None:  # (no deck list: a tag that does not read)
        k = next(i for i, ln in enumerate(lines) if ln.startswith("[player "))
        lines[k] = "[player ann]"
    else:
        n, name = lines[k].split(" ", 1)
        lines[k] = f"{n} {name}qq"
    header.write_text("\n".join(lines) + "\n")
    r = run("record", str(tmp_path / "n.jsonl"), "--setup", f"@{header}", "--script", "-")
    assert r.exit_code == 2 and f"header.txt:{k + 1}: " in r.output and "Traceback" not in r.output, r.output
    assert not (tmp_path / "n.jsonl").exists()
