"""A tournament report as one self-contained HTML page (``tournament check --html FILE``).

Everything is inlined (style, script, the report's JSON): the file opens from disk in any browser
with no server and no network.  Rounds are rows, tables columns; each cell carries a badge of its
status and its problems; the filters show only the tables with an illegal log, an unfinished log,
a mismatched result or a deck-list problem; a cell's details list its problems with their lines,
and link to the match's replay file when one was exported beside the report (``replays``).
"""

from __future__ import annotations

import html
from typing import Any

from .safejson import json_script

#: the filters of the page: (id, label, the problem kinds or statuses a table must show)
FILTERS = (
    ("all", "all tables", ()),
    ("problems", "any problem", ("*",)),
    ("illegal", "illegal", ("illegal", "unreadable", "error")),
    ("unfinished", "unfinished", ("unfinished",)),
    ("result", "mismatched result", ("result-mismatch", "no-result")),
    ("deck", "deck list", ("deck",)),
)

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.4em;margin:0 0 .2em} .meta{color:#555;margin-bottom:1em}
.filters button{margin:0 .3em .3em 0;padding:.3em .8em;border:1px solid #888;border-radius:1em;background:#fff;cursor:pointer}
.filters button.on{background:#234;color:#fff}
table.grid{border-collapse:collapse;margin:1em 0} .grid th,.grid td{border:1px solid #ccc;padding:.3em;vertical-align:top}
.grid th{background:#eee} td.cell{min-width:7em;cursor:pointer} td.cell.hidden{opacity:.12}
.badge{display:inline-block;padding:0 .5em;border-radius:.6em;font-size:.85em;color:#fff}
.legal{background:#2a7a3a}.illegal,.unreadable,.error{background:#b3261e}.unfinished{background:#b86e00}
.undetermined{background:#5b5bb3}.missing,.missing-log{background:#777}
.table-mismatch,.duplicate-log,.copied-log,.seat-conflict,.seated-twice,.result-mismatch,.deck{background:#b3261e}
.no-result,.rematch{background:#b86e00}
.kinds{font-size:.8em;color:#b3261e} .who{font-size:.8em;color:#444}
#detail{background:#fff;border:1px solid #ccc;padding:.8em;margin-top:1em;white-space:pre-wrap}
.summary td{padding:0 1em 0 0}
"""

_SCRIPT = """
const report = JSON.parse(document.getElementById('report').textContent);
const filters = JSON.parse(document.getElementById('filters').textContent);
function matches(t, f) {
  const want = filters[f];
  if (!want.length) return true;
  const kinds = t.problems.map(p => p.kind).concat([t.status]);
  return want.includes('*') ? t.problems.length > 0 : kinds.some(k => want.includes(k));
}
function show(f) {
  document.querySelectorAll('.filters button').forEach(b => b.classList.toggle('on', b.dataset.filter === f));
  let shown = 0;
  document.querySelectorAll('td.cell').forEach(td => {
    const ok = matches(report.tables[+td.dataset.index], f);
    td.classList.toggle('hidden', !ok); shown += ok;
  });
  document.getElementById('shown').textContent = shown + ' of ' + report.tables.length + ' tables shown';
}
function detail(i) {
  const t = report.tables[i];
  const lines = ['round ' + t.round + ' table ' + t.table + ': ' + t.players.join(', ') + ' (' + t.status + ')',
    'reported: ' + (t.reported || 'nothing') + (t.outcome ? '; the log: ' + (t.outcome.winner ? t.outcome.winner + ' wins' : t.outcome.result) + ' (' + t.outcome.reason + ')' : ''),
    'manifest line ' + t.manifest_line];
  t.problems.forEach(p => lines.push(p.kind + ': ' + (p.file ? p.file + (p.line ? ':' + p.line : '') + ': ' : '') + p.message));
  t.rulings.forEach(r => lines.push('ruling: line ' + r.line + ': ' + r.text));
  const box = document.getElementById('detail');
  box.textContent = lines.join('\\n');
  if (t.replay) { const a = document.createElement('a'); a.href = t.replay; a.textContent = 'replay'; a.id = 'replay-link';
                  box.appendChild(document.createTextNode('\\n')); box.appendChild(a); }
}
document.querySelectorAll('.filters button').forEach(b => b.addEventListener('click', () => show(b.dataset.filter)));
document.querySelectorAll('td.cell').forEach(td => td.addEventListener('click', () => detail(+td.dataset.index)));
show('all');
"""


def render(report: dict[str, Any], replays: dict[tuple[int, int], str] | None = None) -> str:
    """The page; ``replays`` maps (round, table) to a replay file's address relative to the page."""
    tables = [dict(t, replay=(replays or {}).get((t["round"], t["table"]))) for t in report["tables"]]
    data = dict(report, tables=tables)
    e = html.escape
    t, s = report["tournament"], report["summary"]
    numbers = sorted({x["table"] for x in tables})
    rounds = sorted({x["round"] for x in tables})
    at = {(x["round"], x["table"]): i for i, x in enumerate(tables)}
    rows = []
    for r in rounds:
        cells = [f"<th>round {r}</th>"]
        for n in numbers:
            i = at.get((r, n))
            if i is None:
                cells.append("<td></td>")
                continue
            x = tables[i]
            kinds = " ".join(sorted({p["kind"] for p in x["problems"]}))
            link = f' <a href="{e(x["replay"])}" class="replay">replay</a>' if x["replay"] else ""
            cells.append(f'<td class="cell" data-index="{i}" data-status="{e(x["status"])}" data-kinds="{e(kinds)}">'
                         f'<span class="badge {e(x.get("badge", x["status"]))}">{e(x.get("badge", x["status"]))}</span>{link}'
                         f'<div class="who">{e(" - ".join(x["players"]))}</div>'
                         f'<div class="kinds">{e(kinds)}</div></td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "<tr><th></th>" + "".join(f"<th>table {n}</th>" for n in numbers) + "</tr>"
    buttons = "".join(f'<button data-filter="{f}">{e(label)}</button>' for f, label, _k in FILTERS)
    kinds = ", ".join(f"{k} {n}" for k, n in s["by_kind"].items()) or "none"
    players = "".join(
        f"<tr><td>{e(p['id'])}</td><td>{e(p['name'] or '')}</td><td>{len(p['tables'])}</td><td>{p['problems']}</td>"
        f"<td>{len(p['rulings'])}</td><td>{len(p['penalties'])}</td></tr>" for p in report["players"])
    dates = " to ".join(dict.fromkeys([*t["dates"][:1], *t["dates"][-1:]]))
    standings = _standings(report)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(t['name'])}: tournament report</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<style>{_STYLE}</style></head><body>
<h1>{e(t['name'])}</h1>
<div class="meta">{e(t['game'])}{', ' + e(dates) if dates else ''}: {s['players']} players, {s['rounds']} rounds,
{s['tables']} tables; <b id="problem-count">{s['problems']} problems</b> ({e(kinds)})</div>
<div class="filters">{buttons} <span id="shown"></span></div>
<table class="grid" id="grid">{head}{''.join(rows)}</table>
<div id="detail">Click a table for its problems, rulings and replay.</div>
<h2>Players</h2>
<table class="summary"><tr><th>id</th><th>name</th><th>tables</th><th>problems</th><th>rulings</th><th>penalties</th></tr>{players}</table>
{standings}
{json_script('report', data)}
{json_script('filters', {f: list(k) for f, _l, k in FILTERS})}
<script>{_SCRIPT}</script>
</body></html>
"""


def _standings(report: dict[str, Any]) -> str:
    """The last round's standings and the tables they do not count (escaped: names are input)."""
    rounds = report.get("standings", {}).get("rounds", [])
    if not rounds:
        return ""
    e, last = html.escape, rounds[-1]
    tbs = list(report["standings"]["scoring"]["tiebreakers"])
    head = "".join(f"<th>{e(x)}</th>" for x in ["rank", "player", "points", "won", "drawn", "lost", "byes", "dropped", *tbs])
    rows = "".join(
        "<tr>" + "".join(f"<td>{e(str(v))}</td>" for v in [x["rank"], x["player"], x["points"], x["wins"], x["draws"],
                                                         x["losses"], x["byes"], x["dropped"] or "",
                                                         *(x["tiebreakers"][k] for k in tbs)]) + "</tr>"
        for x in last["rows"])
    disputed = "".join(f"<li>round {d['round']} table {d['table']} ({e(', '.join(d['players']))}): {e(d['why'])}</li>"
                       for d in last["disputed"])
    return (f'<h2>Standings after round {last["round"]}</h2><table class="summary" id="standings"><tr>{head}</tr>{rows}</table>'
            + (f'<p>Not counted (disputed, no ruling):</p><ul id="disputed">{disputed}</ul>' if disputed else ""))
