"""Standings (issue 31): the generated 64-player, 6-round Swiss event's standings after every
round equal a second, deliberately simple computation written here from docs/tournament.md
("Standings"), with byes, a drop, a ruling outside the logs and every tiebreaker."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from adjudicator.cli.main import main

from .tournament_gen import generate

ALL = ["omw", "gw", "ogw", "buchholz", "sonneborn-berger", "head-to-head"]


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    gen = generate(tmp_path_factory.mktemp("swiss"), "colossus-order", players=64, rounds=6)
    return gen


def _regulate(gen, scoring: str, extra: str) -> dict:
    """The event's manifest with ``scoring`` (TOML lines of [scoring]) and ``extra`` appended; the report."""
    text = gen.manifest.read_text()
    head, rest = text.split("\n[[players]]", 1)
    path = gen.manifest.with_name("regulated.toml")
    path.write_text(head + "\n[scoring]\n" + scoring + "\n\n[[players]]" + rest + "\n" + extra)
    r = invoke("tournament", "check", "--json", path, "-j", "1")
    assert r.exit_code == 1, r.output
    return json.loads(r.output)


# -- the simple computation ------------------------------------------------------------------------

def simple(report, win, draw, loss, bye, tiebreakers, byes, drops, rulings):
    """Standings per round: loops over tables, nothing shared with adjudicator.core.services.standings."""
    ids = [p["id"] for p in report["players"]]
    out = []
    for upto in sorted({t["round"] for t in report["tables"]}):
        pts = {p: Fraction(0) for p in ids}
        meetings = {p: [] for p in ids}  # (opponents, my points)
        rounds_played = {p: 0 for p in ids}
        for t in report["tables"]:
            if t["round"] > upto:
                continue
            ruled = rulings.get((t["round"], t["table"]))
            if ruled is not None:
                winners = [] if ruled == "draw" else ruled.split("+")
            else:
                kinds = {p["kind"] for p in t["problems"]}  # (a rematch is the pairing's finding: the result stands)
                if not kinds <= {"deck", "no-result", "rematch"} or t["outcome"] is None:
                    continue
                winners = [] if t["outcome"]["result"] == "draw" else t["outcome"]["winner"].split("+")
            for p in t["players"]:
                mine = Fraction(draw) if not winners else Fraction(win if p in winners else loss)
                pts[p] += mine
                rounds_played[p] += 1
                meetings[p].append(([o for o in t["players"] if o != p], mine))
        for r, who in byes.items():
            if r <= upto:
                for p in who:
                    pts[p] += bye
                    rounds_played[p] += 1
        mw = {}
        for p in ids:
            mw[p] = Fraction(1, 3) if rounds_played[p] == 0 else max(Fraction(1, 3), pts[p] / (win * rounds_played[p]))
        values = {}
        for p in ids:
            opps = [o for os_, _m in meetings[p] for o in os_]
            avg = sum(mw[o] for o in opps) / len(opps) if opps else Fraction(0)
            values[p] = {"omw": avg, "gw": mw[p], "ogw": avg,
                         "buchholz": sum(pts[o] for o in opps),
                         "sonneborn-berger": sum(pts[o] * m / win for os_, m in meetings[p] for o in os_)}
        key = {p: [pts[p]] for p in ids}
        for tb in tiebreakers:
            if tb != "head-to-head":
                for p in ids:
                    key[p].append(values[p][tb])
                continue
            snapshot = {p: tuple(key[p]) for p in ids}
            for p in ids:
                tied = [q for q in ids if snapshot[q] == snapshot[p]]
                h = Fraction(0)
                if len(tied) > 1:
                    for os_, m in meetings[p]:
                        if all(o in tied for o in os_):
                            h += m
                key[p].append(h)
        order = sorted(ids, key=lambda p: tuple(-k for k in key[p]) + (p,))
        rows = []
        for i, p in enumerate(order):
            rank = i + 1 if i == 0 or key[p] != key[order[i - 1]] else rows[-1][0]
            dropped = min((r for r, who in drops.items() if p in who and r <= upto), default=None)
            rows.append((rank, p, round(float(pts[p]), 4), dropped,
                         tuple(round(float(k), 4) for k in key[p][1:])))
        out.append(rows)
    return out


def swiss_players_r1(report):
    return next(t for t in report["tables"] if (t["round"], t["table"]) == (1, 1))["players"]


def _rows(report):
    return [[(x["rank"], x["player"], round(float(x["points"]), 4), x["dropped"],
              tuple(round(float(v), 4) for v in x["tiebreakers"].values())) for x in rnd["rows"]]
            for rnd in report["standings"]["rounds"]]


def _displaced(gen):
    """The player the seated-twice plant took off a table (unpaired that round): given a bye."""
    twice = next(p for p in gen.planted if p.kind == "seated-twice")
    report = json.loads(invoke("tournament", "check", "--json", gen.manifest, "-j", "1").output)
    seated = {pl for t in report["tables"] if t["round"] == twice.round for pl in t["players"]}
    return twice.round, sorted({p["id"] for p in report["players"]} - seated)


@pytest.mark.parametrize("scoring,tiebreakers", [
    ("win = 3\ndraw = 1\nloss = 0", ALL),
    ("win = 1\ndraw = 0.5\nloss = 0\nbye = 1", ["head-to-head", "buchholz", "sonneborn-berger"]),
])
def test_standings_equal_a_simple_computation_every_round(event, scoring, tiebreakers):
    rnd, unpaired = _displaced(event)
    disputed = next(p for p in event.planted if p.kind == "result-mismatch")
    dropper = "p07"
    extra = (f"\n[[rulings]]\nround = {disputed.round}\ntable = {disputed.table}\nresult = \"draw\"\n"
             f"grounds = \"both players agreed to a draw before the judge\"\n"
             f"\n[[rulings]]\nround = 1\ntable = 1\npenalty = \"warning\"\n"
             f"grounds = \"late to the table\"\n")
    text = event.manifest.read_text()
    event_rounds = text.split("[[rounds]]\nround = ")
    # the bye and the drop as a round's fields (after its `round = N` line)
    body = "[[rounds]]\nround = ".join(
        part if i == 0 else part.replace("\n", f"\nbyes = {json.dumps(unpaired)}\n", 1) if int(part.split("\n")[0]) == rnd
        else part.replace("\n", f'\ndrops = ["{dropper}"]\n', 1) if int(part.split("\n")[0]) == 4 else part
        for i, part in enumerate(event_rounds))
    event.manifest.with_name("swiss.toml").write_text(body)
    swiss = type(event)(event.directory, event.manifest.with_name("swiss.toml"))
    report = _regulate(swiss, scoring + f"\ntiebreakers = {json.dumps(tiebreakers)}", extra)
    vals = dict(line.split(" = ") for line in scoring.split("\n"))
    win, draw, loss = (Fraction(vals[k]) for k in ("win", "draw", "loss"))
    bye = Fraction(vals.get("bye", vals["win"]))
    want = simple(report, win, draw, loss, bye, tiebreakers, {rnd: unpaired}, {4: [dropper]},
                  {(disputed.round, disputed.table): "draw"})
    assert len(unpaired) == 1 and _rows(report) == want
    final = report["standings"]["rounds"][-1]
    assert len(final["rows"]) == 64 and final["rows"][0]["rank"] == 1
    # every disputed table is named, none counted; the ruled one is counted
    named = {(d["round"], d["table"]) for d in final["disputed"]}
    assert (disputed.round, disputed.table) not in named
    assert named == {(p.round, p.table) for p in event.planted
                     if p.kind not in ("deck", "result-mismatch") and p.table is not None}
    assert next(x for x in final["rows"] if x["player"] == unpaired[0])["byes"] == 1
    assert next(x for x in final["rows"] if x["player"] == dropper)["dropped"] == 4
    # a ruling outside the logs is listed under the players it names
    who = {p["id"]: p for p in report["players"]}
    for pl in swiss_players_r1(report):  # a ruling naming no one: every player of its table
        assert who[pl]["penalties"][-1]["text"] == "ruling: penalty warning; late to the table"
    assert sum(len(p["penalties"]) for p in report["players"]) == 3  # and the log's one


def test_standings_and_findings_go_out_as_csv_a_spreadsheet_reads_back(event, tmp_path):
    import csv

    text = event.manifest.read_text().replace('name = "Player 3"', 'name = "=HYPERLINK(\\"http://x\\")"')
    m = event.manifest.with_name("csv.toml")
    m.write_text(text)
    s, f, page = tmp_path / "s.csv", tmp_path / "f.csv", tmp_path / "r.html"
    r = invoke("tournament", "check", m, "--standings-csv", s, "--findings-csv", f, "--html", page, "--json")
    report = json.loads(r.output)
    rows = list(csv.DictReader(s.open(newline="")))
    assert len(rows) == 64 * 6
    final = [x for x in rows if x["round"] == "6"]
    want = report["standings"]["rounds"][-1]["rows"]
    assert [(int(x["rank"]), x["player"], float(x["points"]), float(x["omw"])) for x in final] == \
        [(x["rank"], x["player"], float(x["points"]), x["tiebreakers"]["omw"]) for x in want]
    assert next(x for x in final if x["player"] == "p03")["name"] == "'=HYPERLINK(\"http://x\")"
    found = list(csv.DictReader(f.open(newline="")))
    assert sorted((x["kind"], int(x["round"]), int(x["table"] or 0)) for x in found) == \
        sorted((p.kind, p.round, p.table or 0) for p in event.planted)
    html = page.read_text()
    assert 'id="standings"' in html and "=HYPERLINK(&quot;" in html and 'id="disputed"' in html
    # the badge is the table's worst finding; a player's count holds only the problems naming them or no one
    for p in event.planted:
        if p.kind in ("result-mismatch", "deck"):
            tab = next(t for t in report["tables"] if (t["round"], t["table"]) == (p.round, p.table))
            assert tab["status"] == "legal" and tab["badge"] == p.kind
            assert f'<span class="badge {p.kind}">{p.kind}</span>' in html
    deck = next(p for p in event.planted if p.kind == "deck")
    tab = next(t for t in report["tables"] if (t["round"], t["table"]) == (deck.round, deck.table))
    opponent = next(x for x in tab["players"] if x != deck.player)
    counts = {p["id"]: p["problems"] for p in report["players"]}
    assert counts[deck.player] >= 1
    assert counts[opponent] == sum(1 for t in report["tables"] if opponent in t["players"]
                                   for p in t["problems"] if p["player"] in (None, opponent))
    assert all(p["player"] != opponent for p in tab["problems"])
    out = invoke("tournament", "check", m).output
    assert "standings after round 6:" in out and "not counted: round " in out


def test_a_ruling_on_an_unknown_table_names_its_line(event):
    m = event.manifest.with_name("m.toml")
    m.write_text(event.manifest.read_text() + '\n[[rulings]]\nround = 1\ntable = 99\nresult = "draw"\ngrounds = "x"\n')
    r = invoke("tournament", "check", m)
    line = len(event.manifest.read_text().split("\n")) + 1
    assert r.exit_code == 2 and f"m.toml:{line}: rulings[0].table:" in r.output, r.output


def _second_offence(path, player):
    """The illegal log at ``path`` with a second illegal event of ``player``'s (one of their later
    decisions repeated), found by verifying each candidate with --keep-going; its line."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.verify import run

    lines = path.read_bytes().splitlines(keepends=True)
    first = run(parse_log(b"".join(lines), "x"), keep_going=True, play_on=True).violations
    for k in range(len(lines) - 2, first[0].line + 3, -1):
        doc = json.loads(lines[k])
        if doc.get("player") != player:
            continue
        cand = lines[:k + 1] + [lines[k]] + lines[k + 1:]
        got = run(parse_log(b"".join(cand), "x"), keep_going=True, play_on=True).violations
        if len(got) == 2 and got[0].line == first[0].line and got[1].line == k + 2:
            path.write_bytes(b"".join(cand))
            return k + 2
    raise AssertionError("no second illegal event")


@pytest.mark.parametrize("scope", ["game", "event"])
def test_each_illegal_event_earns_its_penalty_and_a_game_loss_decides_the_game(event, scope):
    import shutil

    bad = next(p for p in event.planted if p.kind == "illegal")
    report = json.loads(invoke("tournament", "check", "--json", event.manifest, "-j", "1").output)
    tab = next(t for t in report["tables"] if (t["round"], t["table"]) == (bad.round, bad.table))
    offender = json.loads(open(bad.file).read().splitlines()[bad.line - 1])["player"]
    copy = event.manifest.with_name("pen-logs")
    shutil.copytree(event.directory / "logs", copy, dirs_exist_ok=True)
    second = _second_offence(copy / f"r{bad.round}-t{bad.table}.jsonl", offender)
    text = event.manifest.read_text().replace('logs = "logs"', 'logs = "pen-logs"')
    head, rest = text.split("\n[[players]]", 1)
    m = event.manifest.with_name("pen.toml")
    m.write_text(head + f'\n[penalties]\nrule = "warning-then-game-loss"\nscope = "{scope}"\n\n[[players]]' + rest)
    r = invoke("tournament", "check", "--json", m, "-j", "1")
    report = json.loads(r.output)
    tab = next(t for t in report["tables"] if (t["round"], t["table"]) == (bad.round, bad.table))
    assert [(p["player"], p["line"], p["penalty"]) for p in tab["penalties"]] == \
        [(offender, bad.line, "warning"), (offender, second, "game-loss")]
    assert [p["kind"] for p in tab["problems"]] == ["illegal"]  # one finding, the first illegal event
    assert sum(len(t["penalties"]) for t in report["tables"]) == 2
    # the game loss decides the game: the opponent's win counts, the table is not disputed
    final = report["standings"]["rounds"][-1]
    assert (bad.round, bad.table) not in {(d["round"], d["table"]) for d in final["disputed"]}
    winner = next(p for p in tab["players"] if p != offender)
    first_round = report["standings"]["rounds"][bad.round - 1]["rows"]
    assert next(x for x in first_round if x["player"] == winner)["wins"] >= 1
    text = invoke("tournament", "check", m).output
    assert f"{offender} earns a game-loss for event " in text


def test_a_registered_list_that_breaks_the_construction_rules_is_one_finding_of_its_player(event):
    import re

    text = event.manifest.read_text()
    entry = text.index('id = "p05"')
    deck_at = text.index("deck = ", entry)
    card = re.search(r'"cards" = \{ "([^"]+)" = (\d+)', text[deck_at:])
    new = text[:deck_at] + text[deck_at:].replace(f'"{card.group(1)}" = {card.group(2)}', f'"{card.group(1)}" = 9', 1)
    m = event.manifest.with_name("reg.toml")
    m.write_text(new)
    report = json.loads(invoke("tournament", "check", "--json", m, "-j", "1").output)
    regs = [p for p in report["event_problems"] if p["kind"] == "registration"]
    line = text[:entry].count("\n")  # the [[players]] header's line, just above the id
    assert [(p["player"], p["round"], p["table"], p["manifest_line"]) for p in regs] == [("p05", None, None, line)]
    assert "must hold exactly 50" in regs[0]["message"]
    # nothing else changed: every other finding is the planted one
    others = [p for t in report["tables"] for p in t["problems"]] + \
        [p for p in report["event_problems"] if p["kind"] != "registration"]
    assert len(others) == len(event.planted)
    assert "registration: p05's registered list" in invoke("tournament", "check", m).output


def test_a_slips_points_are_checked_against_the_logs_result(event):
    """Every finished, undisputed table gets a slip: right at one, one point off at another."""
    from adjudicator.core.services.standings import Scoring, table_points

    report = json.loads(invoke("tournament", "check", "--json", event.manifest, "-j", "1").output)
    clean = [t for t in report["tables"] if not t["problems"] and t["outcome"]][:2]
    text = event.manifest.read_text()
    wrong = None
    for i, t in enumerate(clean):
        pts = {p: float(x) for p, x in table_points(Scoring(), t["players"], t["outcome"]).items()}
        if i == 1:
            wrong = t
            pts[t["players"][0]] += 1
        anchor = f"[[rounds.tables]]\ntable = {t['table']}\nplayers = {json.dumps(t['players'])}\n"
        assert anchor in text
        text = text.replace(anchor, anchor + "points = { " + ", ".join(f'"{p}" = {x}' for p, x in pts.items()) + " }\n")
    m = event.manifest.with_name("slips.toml")
    m.write_text(text)
    got = json.loads(invoke("tournament", "check", "--json", m, "-j", "1").output)
    found = [(t["round"], t["table"], p["kind"]) for t in got["tables"] for p in t["problems"]
             if p["kind"] == "points-mismatch"]
    assert found == [(wrong["round"], wrong["table"], "points-mismatch")]
    # the disputed slip is not counted in the standings
    final = got["standings"]["rounds"][-1]
    assert (wrong["round"], wrong["table"]) in {(d["round"], d["table"]) for d in final["disputed"]}


def test_a_resignation_scores_as_the_regulations_say():
    from fractions import Fraction

    from adjudicator.core.services.standings import Scoring, table_points

    resigned = {"result": "win", "winner": "ann", "reason": "resignation"}
    assert table_points(Scoring(), ["ann", "ben"], resigned) == {"ann": 3, "ben": 0}
    assert table_points(Scoring(resignation="draw"), ["ann", "ben"], resigned) == {"ann": 3, "ben": 1}
    assert table_points(Scoring(resignation="draw", win=1, draw=0.5), ["ann", "ben"], resigned) == \
        {"ann": 1, "ben": Fraction(1, 2)}
    other = {"result": "win", "winner": "ann", "reason": "the Colossus fell"}
    assert table_points(Scoring(resignation="draw"), ["ann", "ben"], other) == {"ann": 3, "ben": 0}


def _first_offence(path, player):
    """The legal log at ``path`` with one of ``player``'s decisions repeated where that is illegal."""
    from adjudicator.core.kernel.log import parse_log
    from adjudicator.core.kernel.verify import run

    lines = path.read_bytes().splitlines(keepends=True)
    for k in range(10, len(lines) - 1):
        if json.loads(lines[k]).get("player") != player:
            continue
        cand = lines[:k + 1] + [lines[k]] + lines[k + 1:]
        got = run(parse_log(b"".join(cand), "x"), keep_going=True, play_on=True).violations
        if len(got) == 1 and got[0].line == k + 2:
            path.write_bytes(b"".join(cand))
            return k + 2
    raise AssertionError("no illegal repetition")


@pytest.mark.parametrize("scope,earned", [("game", "warning"), ("event", "game-loss")])
def test_the_penalty_scope_counts_per_game_or_over_the_event(event, scope, earned):
    import shutil

    bad = next(p for p in event.planted if p.kind == "illegal")
    offender = json.loads(open(bad.file).read().splitlines()[bad.line - 1])["player"]
    report = json.loads(invoke("tournament", "check", "--json", event.manifest, "-j", "1").output)
    later = next(t for t in report["tables"] if offender in t["players"] and t["round"] > bad.round
                 and not t["problems"] and t["log"])
    copy = event.manifest.with_name(f"scope-{scope}")
    shutil.copytree(event.directory / "logs", copy, dirs_exist_ok=True)
    line = _first_offence(copy / f"r{later['round']}-t{later['table']}.jsonl", offender)
    text = event.manifest.read_text().replace('logs = "logs"', f'logs = "scope-{scope}"')
    head, rest = text.split("\n[[players]]", 1)
    m = event.manifest.with_name(f"scope-{scope}.toml")
    m.write_text(head + f'\n[penalties]\nrule = "warning-then-game-loss"\nscope = "{scope}"\n\n[[players]]' + rest)
    got = json.loads(invoke("tournament", "check", "--json", m, "-j", "1").output)
    tab = next(t for t in got["tables"] if (t["round"], t["table"]) == (later["round"], later["table"]))
    assert [(p["player"], p["line"], p["penalty"]) for p in tab["penalties"]] == [(offender, line, earned)]


@pytest.mark.parametrize("carry", [True, False])
def test_a_game_loss_given_between_rounds_is_carried_over_to_the_next_game_when_the_rules_say(event, carry):
    """``penalties.carry_over``: a ruling's game loss decides the player's next table (its
    opponent wins it, whatever the log says); without it the ruling is listed only."""
    report = json.loads(invoke("tournament", "check", "--json", event.manifest, "-j", "1").output)
    clean = {(t["round"], t["table"]): t for t in report["tables"] if not t["problems"] and t["outcome"]}
    # a player whose round-2 and round-3 tables are clean, and who won in round 3
    pick = next((t, n, p) for t in report["tables"] if t["round"] == 2 and (2, t["table"]) in clean
                for p in t["players"]
                for n in [next(x for x in report["tables"] if x["round"] == 3 and p in x["players"])]
                if (3, n["table"]) in clean and n["outcome"]["winner"] == p)
    tab, nxt, player = pick
    text = event.manifest.read_text()
    head, rest = text.split("\n[[players]]", 1)
    m = event.manifest.with_name(f"carry-{carry}.toml")
    m.write_text(head + f"\n[penalties]\ncarry_over = {str(carry).lower()}\n\n[[players]]" + rest +
                 f'\n[[rulings]]\nround = 2\ntable = {tab["table"]}\nplayers = ["{player}"]\n'
                 f'penalty = "game-loss"\ngrounds = "unsporting conduct after the game"\n')
    got = json.loads(invoke("tournament", "check", "--json", m, "-j", "1").output)
    after = next(t for t in got["tables"] if (t["round"], t["table"]) == (3, nxt["table"]))
    r3 = {x["player"]: x for x in got["standings"]["rounds"][2]["rows"]}
    r3_before = {x["player"]: x for x in report["standings"]["rounds"][2]["rows"]}
    if carry:
        assert [(p["player"], p["penalty"], p["carried_from"]) for p in after["penalties"]] == \
            [(player, "game-loss", {"round": 2, "table": tab["table"]})]
        assert r3[player]["wins"] == r3_before[player]["wins"] - 1
        assert r3[player]["losses"] == r3_before[player]["losses"] + 1
        assert f"{player} earns a game-loss carried over" in invoke("tournament", "check", m).output
    else:
        assert after["penalties"] == [] and r3[player]["wins"] == r3_before[player]["wins"]
