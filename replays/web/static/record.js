/* The new-match page (/record): start a match, then record it entry by entry through
   /api/recordings (every request carries the upload token).  Choices are buttons in words. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let rec = null;

  function token() { return $("rec-token").value.trim(); }
  function call(method, path, body) {
    sessionStorage.setItem("adjudicator-token", token());
    return fetch(path, {
      method: method,
      headers: Object.assign({ "Authorization": "Bearer " + token() }, body ? { "Content-Type": "application/json" } : {}),
      body: body ? JSON.stringify(body) : undefined,
    }).then(r => r.json().then(doc => {
      if (!r.ok) throw new Error(doc && doc.detail ? doc.detail : r.status + " " + r.statusText);
      return doc;
    }));
  }
  function fail(err) {
    const e = $("rec-error"); e.textContent = err.message; e.hidden = false;
    document.body.dataset.ready = "1";
  }
  function json(text) {
    const t = text.trim();
    if (!t) return {};
    return JSON.parse(t);
  }

  function show(doc) {
    rec = doc;
    $("rec-error").hidden = true;
    $("new-box").hidden = true;
    $("rec-box").hidden = false;
    if (location.pathname !== "/record/" + doc.id) history.replaceState(null, "", "/record/" + doc.id);
    $("rec-title").textContent = doc.game_name + (doc.seat ? " \u00b7 seat " + doc.seat : "");
    $("rec-header").textContent = [doc.header, doc.events + " events", doc.over ? "over: " + doc.result + (doc.sealed ? " (sealed)" : "") : ""]
      .filter(Boolean).join(" \u00b7 ");
    try { SceneView.render($("rec-scene"), doc.scene, {}); } catch (e) { $("rec-scene").textContent = ""; }
    $("rec-filter").hidden = true;
    $("rec-text").textContent = doc.position;
    $("rec-ask").textContent = doc.over ? "The match is over" :
      doc.random ? "What happened at the table?" : "To act: " + doc.to_act.join(", ");
    const box = $("rec-choices");
    box.textContent = "";
    doc.choices.forEach(c => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "choice" + (c.random ? " random" : "");
      b.dataset.number = String(c.number);
      b.textContent = c.label + (c.alternatives > 1 ? "  (+" + (c.alternatives - 1) + " paths)" : "");
      b.dataset.touched = JSON.stringify(c.touched || []);
      b.addEventListener("click", () => enter(String(c.number)));
      box.appendChild(b);
    });
    const msg = $("rec-message");
    msg.textContent = doc.message || "";
    msg.className = "rec-message" + (doc.ok ? "" : " refused");
    const log = $("rec-log");
    log.textContent = "";
    doc.log.slice().reverse().forEach(line => { const li = document.createElement("li"); li.textContent = line; log.appendChild(li); });
    const open = $("rec-open");
    open.hidden = !doc.url;
    if (doc.url) open.href = doc.url;
    document.body.dataset.events = String(doc.events);
    document.body.dataset.over = doc.over ? "1" : "0";
    document.body.dataset.ready = "1";
  }

  /* Touching the board or a card keeps the choices that concern it (a square, a piece, a card). */
  function touch(ev) {
    if (!rec) return;
    const ids = [];  // the square, the piece on it, the card: whatever the touch landed on
    [["[data-cell]", "cell"], ["[data-piece]", "piece"], ["[data-card]", "card"], ["[data-pool-card]", "poolCard"]].forEach(([sel, k]) => {
      const node = ev.target.closest(sel);
      if (node && node.dataset[k]) ids.push(node.dataset[k]);
    });
    if (!ids.length) return;
    let shown = 0;
    [...$("rec-choices").children].forEach(b => {
      const t = JSON.parse(b.dataset.touched || "[]");
      const on = ids.some(id => t.includes(id));
      b.hidden = !on;
      if (on) shown++;
    });
    const f = $("rec-filter");
    f.hidden = false;
    f.textContent = shown + " choice" + (shown === 1 ? "" : "s") + " concern " + ids.join(", ") + " \u00b7 show all";
    document.body.dataset.filtered = String(shown);
  }
  function showAll() {
    [...$("rec-choices").children].forEach(b => { b.hidden = false; });
    $("rec-filter").hidden = true;
    document.body.dataset.filtered = "";
  }

  function enter(text) {
    document.body.dataset.ready = "0";
    return call("POST", "/api/recordings/" + rec.id + "/entries", { entry: text }).then(show).catch(fail);
  }

  function start(ev) {
    ev.preventDefault();
    let setup, options;
    try { setup = json($("new-setup").value); options = json($("new-options").value); }
    catch (e) { fail(new Error("the set-up and the options are JSON objects: " + e.message)); return; }
    const meta = {};
    ["event", "round", "table", "judge"].forEach(k => { const v = $("meta-" + k).value.trim(); if (v) meta[k] = v; });
    const body = { game: $("new-game").value, players: $("new-players").value.split(",").map(s => s.trim()).filter(Boolean),
                   setup: setup, options: options, meta: meta };
    if ($("new-pool").value.trim()) body.pool = $("new-pool").value.trim();
    if ($("new-seat").value) body.seat = $("new-seat").value;
    document.body.dataset.ready = "0";
    call("POST", "/api/recordings", body).then(show).catch(fail);
  }

  function seats() {
    const sel = $("new-seat");
    const keep = sel.value;
    sel.innerHTML = '<option value="">everything (a judge\'s or scorekeeper\'s record)</option>';
    $("new-players").value.split(",").map(s => s.trim()).filter(Boolean).forEach(p => {
      const o = document.createElement("option"); o.value = p; o.textContent = "seat " + p; sel.appendChild(o);
    });
    sel.value = keep;
  }

  function sample() {
    return fetch("/api/recordings/sample-setup?game=" + encodeURIComponent($("new-game").value)).then(r => r.json()).then(doc => {
      $("new-players").value = doc.players.join(",");
      $("new-setup").value = JSON.stringify(doc.setup);
      $("new-options").value = JSON.stringify(doc.options);
      seats();
    }).catch(fail);
  }

  /* The judge's view: two seats' records side by side, with reconcile's answer. */
  function judge(a, b) {
    $("new-box").hidden = true;
    $("judge-box").hidden = false;
    call("GET", "/api/recordings/reconcile?a=" + encodeURIComponent(a) + "&b=" + encodeURIComponent(b)).then(doc => {
      $("judge-a-title").textContent = "seat " + (doc.seat_a || "?");
      $("judge-b-title").textContent = "seat " + (doc.seat_b || "?");
      [["judge-a", doc.lines_a], ["judge-b", doc.lines_b]].forEach(([id, lines]) => {
        const ol = $(id); ol.textContent = "";
        lines.forEach(l => { const li = document.createElement("li"); li.textContent = l; ol.appendChild(li); });
      });
      const bad = new Set();
      doc.contradictions.forEach(c => { if (c.line_a) bad.add("a" + c.line_a); if (c.line_b) bad.add("b" + c.line_b); });
      [["judge-a", "a"], ["judge-b", "b"]].forEach(([id, k]) => {
        [...$(id).children].forEach((li, i) => { if (bad.has(k + (i + 1))) li.className = "contradiction"; });
      });
      $("judge-answer").textContent = doc.contradictions.length
        ? doc.contradictions.length + " contradiction(s): " + doc.contradictions.map(c => c.message).join("; ")
        : "no contradiction: the records make one log of " + doc.merged_events + " events, " + doc.merged_verdict;
      $("judge-answer").className = "rec-message" + (doc.contradictions.length ? " refused" : "");
      document.body.dataset.ready = "1";
    }).catch(fail);
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("rec-token").value = sessionStorage.getItem("adjudicator-token") || "";
    $("new-form").addEventListener("submit", start);
    $("new-sample").addEventListener("click", sample);
    $("new-players").addEventListener("change", seats);
    $("rec-undo").addEventListener("click", () => enter("undo"));
    $("rec-scene").addEventListener("click", touch);
    $("rec-filter").addEventListener("click", showAll);
    $("rec-store").addEventListener("click", () => {
      document.body.dataset.ready = "0";
      call("POST", "/api/recordings/" + rec.id + "/store").then(show).catch(fail);
    });
    $("rec-entry-form").addEventListener("submit", ev => {
      ev.preventDefault();
      const t = $("rec-entry").value; $("rec-entry").value = ""; enter(t);
    });
    const q = new URLSearchParams(location.search);
    if (location.pathname === "/record/judge" && q.get("a") && q.get("b")) {
      judge(q.get("a"), q.get("b"));
      return;
    }
    fetch("/api/games").then(r => r.json()).then(games => {
      $("new-game").innerHTML = games.map(g => '<option value="' + g.id + '">' + g.name + "</option>").join("");
      const m = location.pathname.match(/^\/record\/([0-9a-f]{32})$/);
      if (m && token()) return call("GET", "/api/recordings/" + m[1]).then(show);
      document.body.dataset.ready = "1";
    }).catch(fail);
  });
})();
