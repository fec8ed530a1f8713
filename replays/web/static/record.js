/* The new-match page (/record): start a match, then record it entry by entry through
   /api/recordings (every request carries the upload token).  Choices are buttons in the game's notation. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let rec = null;

  /* more choices than this on a board: the board narrows them */
  const NARROW_OVER = 12;
  let wasNarrowing = false;
  function wide() { return window.matchMedia("(min-width: 800px)").matches; }
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

  function button(c, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "choice" + (c.random ? " random" : "") + cls;
    b.dataset.number = String(c.number);
    b.textContent = c.label + (c.alternatives > 1 ? "  (+" + (c.alternatives - 1) + " paths)" : "");
    b.dataset.touched = JSON.stringify(c.touched || []);
    b.dataset.event = JSON.stringify(c.event);
    return b;
  }

  /* The recording: what to enter next first (the choices, the default one on top), the position
     folded away behind a toggle, the entries that end the match apart and confirmed, Undo apart. */
  function show(doc) {
    rec = doc;
    $("rec-error").hidden = true;
    $("new-box").hidden = true;
    $("token-box").hidden = !!token();
    $("rec-box").hidden = false;
    if (location.pathname !== "/record/" + doc.id) history.replaceState(null, "", "/record/" + doc.id);
    $("rec-title").textContent = doc.game_name + (doc.seat ? " \u00b7 seat " + doc.seat : "");
    $("rec-header").textContent = [doc.header, doc.events + " events", doc.over ? "over: " + doc.result + (doc.sealed ? " (sealed)" : "") : ""]
      .filter(Boolean).join(" \u00b7 ");
    try { SceneView.render($("rec-scene"), doc.scene, {}); } catch (e) { $("rec-scene").textContent = ""; }
    $("rec-filter").hidden = true;
    document.body.dataset.filtered = "";
    $("rec-text").textContent = doc.position;
    $("rec-ask").textContent = doc.over ? "The match is over" :
      doc.random ? "What happened at the table?" : "To act: " + doc.to_act.join(", ");
    const open = doc.choices.filter(c => !c.ends), ending = doc.choices.filter(c => c.ends);
    const first = open.filter(c => c.number === doc.default).concat(open.filter(c => c.number !== doc.default));
    const box = $("rec-choices");
    box.textContent = "";
    first.forEach(c => {
      const b = button(c, c.number === doc.default ? " default" : "");
      b.addEventListener("click", () => pick(String(c.number)));
      box.appendChild(b);
    });
    const endBox = $("rec-ending-choices");
    endBox.textContent = "";
    ending.forEach(c => {
      const b = button(c, " ends");
      b.addEventListener("click", () => confirmEnd(c));
      endBox.appendChild(b);
    });
    $("rec-ending").hidden = !ending.length;
    showChain(doc);
    $("rec-confirm").hidden = true;
    /* Many choices on a board: the position opens as the board alone (tap a square to narrow the
       choices; the board still leaves the first choice in view); else on a phone it folds away. */
    const cells = doc.scene && doc.scene.board && doc.scene.board.cells && doc.scene.board.cells.length;
    const narrowing = !!cells && doc.choices.length > NARROW_OVER;
    $("rec-scene").classList.toggle("board-only", narrowing);
    if (narrowing && !wasNarrowing) $("rec-position").open = true;
    else if (!narrowing && !wide()) $("rec-position").open = false;
    wasNarrowing = narrowing;
    $("rec-position-summary").textContent = narrowing ? "board \u00b7 tap a square: " + doc.choices.length + " choices" : "position";
    showWaiting(doc);
    $("rec-entry").placeholder = doc.default ? "Enter: " + doc.choices.find(c => c.number === doc.default).label
      : "a choice's words or number";
    const msg = $("rec-message");
    msg.textContent = doc.message || "";
    msg.className = "rec-message" + (doc.ok ? "" : " refused");
    const log = $("rec-log");
    log.textContent = "";
    doc.log.slice().reverse().forEach(line => { const li = document.createElement("li"); li.textContent = line; log.appendChild(li); });
    const link = $("rec-open");
    link.hidden = !doc.url;
    if (doc.url) link.href = doc.url;
    if (doc.ok) window.scrollTo(0, 0);  // the next entry's choices in view
    document.body.dataset.events = String(doc.events);
    document.body.dataset.choices = String(doc.choices.length);
    document.body.dataset.over = doc.over ? "1" : "0";
    document.body.dataset.ready = "1";
  }

  /* In seat mode, where the seat's view waits on what the table shows: what to pick or type, in
     its own box above the entry line (in view with the choices on a phone, not cut off in the
     message line), as text: a hint names cards as "<card>", never markup. */
  function showWaiting(doc) {
    $("rec-waiting").textContent = doc.waiting || "";
    $("rec-waiting").hidden = !doc.waiting;
  }

  /* An entry that ends the match (a resignation, a concession, the winning move) is recorded only
     once confirmed: one tap must not end and seal a match. */
  function confirmEnd(c) {
    $("rec-confirm-text").textContent = "End the match: " + c.label + "?";
    $("rec-confirm").hidden = false;
    $("rec-confirm").dataset.number = String(c.number);
    $("rec-confirm").scrollIntoView({ block: "nearest" });
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
    keep(b => { const t = JSON.parse(b.dataset.touched || "[]"); return ids.some(id => t.includes(id)); },
         "concern " + ids.join(", "));
    $("rec-filter").scrollIntoView({ block: "start" });
  }
  /* Typing in the entry line keeps the choices whose words hold every word typed (a long list
     no board narrows: an attack among hundreds, a card among many). */
  function filterTyped() {
    const typed = $("rec-entry").value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!typed.length || /^[0-9{]/.test(typed[0])) { showAll(); return; }
    keep(b => typed.every(w => b.textContent.toLowerCase().includes(w)), "hold \u201c" + typed.join(" ") + "\u201d");
  }
  /* Only the choices ``on`` keeps shown, said on the filter's button ("N choices WHAT · show all"). */
  function keep(on, what) {
    let shown = 0;
    [...document.querySelectorAll("#rec-choices button, #rec-ending-choices button")].forEach(b => {
      b.hidden = !on(b);
      if (!b.hidden) shown++;
    });
    const f = $("rec-filter");
    f.hidden = false;
    f.textContent = shown + " choice" + (shown === 1 ? "" : "s") + " " + what + " \u00b7 show all";
    document.body.dataset.filtered = String(shown);
  }
  function showAll() {
    [...document.querySelectorAll("#rec-choices button, #rec-ending-choices button")].forEach(b => { b.hidden = false; });
    $("rec-filter").hidden = true;
    document.body.dataset.filtered = "";
  }

  /* One entry at a time, on the position shown: a choice's number (and Enter's default) names a
     choice of the position on the page, so a second tap before the first one's answer is not sent
     (it would name a choice of a position nobody has seen), and every entry says how many events
     the page showed: the service refuses one made on a position the record has left (another
     device on the same match) and answers with the record's position. */
  let entering = false;
  function sendEntry(body) {
    if (entering) return Promise.resolve();
    entering = true;
    document.body.dataset.ready = "0";
    return call("POST", "/api/recordings/" + rec.id + "/entries", Object.assign({ events: rec.events }, body)).then(show).catch(fail)
      .finally(() => { entering = false; });
  }
  function enter(text) { return sendEntry({ entry: text }); }

  /* "and then…": while it is on, each choice tapped waits (held open, listed above the choices)
     and the first one tapped with it off records them all as one entry (the session's chain:
     refused, and the toggle turned off, where the same player does not act after the pick). */
  function chainOn() { return $("rec-chain").getAttribute("aria-pressed") === "true"; }
  function setChain(on) {
    $("rec-chain").setAttribute("aria-pressed", on ? "true" : "false");
    document.body.dataset.chain = on ? "1" : "0";
  }
  function showChain(doc) {
    $("rec-chain").hidden = !doc.chain;
    if (!doc.chain || !doc.ok) setChain(false);
    const held = $("rec-held");
    held.hidden = !doc.held.length;
    held.textContent = doc.held.length ? "held, recorded with the next pick as one entry: " + doc.held.join("; ") : "";
    document.body.dataset.held = String(doc.held.length);
  }
  function pick(number) { return sendEntry({ entry: number, chain: chainOn() }); }

  function players() { return $("new-players").value.split(",").map(s => s.trim()).filter(Boolean); }

  /* -- the new-match form: the answers that fill it in, and Start waiting for them -------------
     The form is filled in by answers that come when they come: the game's deck-list boxes and
     registered lists, a sample set-up.  Start sends the form only once every answer asked for is
     in (a form is never sent half filled in: the deck-list boxes of the game before, a list not
     yet placed); a late answer changes only what differs (it never moves a box being typed in:
     a field moved in the page loses the focus, and the keys typed after it), and an answer to a
     question no longer asked (another game chosen since) is dropped. */
  const filling = new Set();
  let starting = false;
  function filled(p) {  // an answer on its way that fills the form in
    const done = () => { filling.delete(p); $("new-form").dataset.filling = String(filling.size); };
    filling.add(p);
    $("new-form").dataset.filling = String(filling.size);
    p.then(done, done);
    return p;
  }
  function settled() {  // every answer asked for so far is in (and any asked for meanwhile)
    return filling.size ? Promise.allSettled([...filling]).then(settled) : Promise.resolve();
  }
  function start(ev) {
    ev.preventDefault();
    if (starting) return;  // (a second tap while the first waits: one match)
    starting = true;
    document.body.dataset.ready = "0";
    $("new-start").setAttribute("aria-busy", "true");
    settled().then(send).finally(() => { starting = false; $("new-start").removeAttribute("aria-busy"); });
  }
  function send() {
    let setup, options;
    try { setup = json($("new-setup").value); options = json($("new-options").value); }
    catch (e) { fail(new Error("more set-up: the set-up and the options are JSON objects: " + e.message)); return undefined; }
    const meta = {};
    ["event", "round", "table", "judge"].forEach(k => { const v = $("meta-" + k).value.trim(); if (v) meta[k] = v; });
    const body = { game: $("new-game").value, players: players(), setup: setup, options: options, meta: meta };
    const lists = {};
    if (!$("new-decks").hidden) {
      [...$("new-deck-boxes").querySelectorAll("textarea")].forEach(t => { if (t.value.trim()) lists[t.dataset.player] = t.value; });
    }
    if (Object.keys(lists).length) body.deck_lists = lists;
    if ($("new-pool").value.trim()) body.pool = $("new-pool").value.trim();
    if ($("new-seat").value) body.seat = $("new-seat").value;
    return call("POST", "/api/recordings", body).then(show).catch(fail);
  }

  /* The players' seats to record as, and a deck-list box per player (games with deck lists):
     one card a line, "3 Grave Rat"; what was typed in a box stays with its player. */
  function seats() {
    const sel = $("new-seat");
    const keep = sel.value;
    if ([...sel.options].slice(1).map(o => o.value).join("\n") !== players().join("\n")) {  // (only when they differ)
      sel.length = 1;
      players().forEach(p => {
        const o = document.createElement("option"); o.value = p; o.textContent = "seat " + p; sel.appendChild(o);
      });
      sel.value = keep;
    }
    const boxes = $("new-deck-boxes");
    const have = {};
    [...boxes.children].forEach(l => { have[l.querySelector("textarea").dataset.player] = l; });
    players().forEach((p, i) => {  // (the boxes kept as they are: a player's list stays while typing)
      let l = have[p];
      if (!l) {
        l = document.createElement("label");
        l.textContent = p + "'s deck list (one card a line: 3 Grave Rat)";
        const t = document.createElement("textarea");
        t.rows = 4; t.dataset.player = p; t.className = "deck-list";
        t.setAttribute("aria-label", p + "'s deck list");
        l.appendChild(t);
      }
      // in the players' order, moved only when out of it: a box moved loses the focus, and what
      // is typed after (an answer that comes while a person, or a test, types a list)
      if (boxes.children[i] !== l) boxes.insertBefore(l, boxes.children[i] || null);
      delete have[p];
    });
    Object.values(have).forEach(l => l.remove());
  }
  function deckBox(p) { return [...$("new-deck-boxes").querySelectorAll("textarea")].find(t => t.dataset.player === p); }

  /* The chosen game: does it have deck lists (a box per player), and the lists registered for
     the service's stored tournaments of it (the picker fills a player's box). */
  function gameChosen() {
    const g = $("new-game").value;
    const question = g + "\n" + token();
    if (question === asked) return settled();  // (the token's change after the game was chosen with it)
    asked = question;
    const mine = ++chosen;  // (a later choice, or the token typed meanwhile: only the last one's answer is shown)
    return filled(Promise.all([
      fetch("/api/recordings/sample-setup?game=" + encodeURIComponent(g)).then(r => r.json()),
      // (with the token only: a registered list is the organiser's; none offered without it)
      token() ? call("GET", "/api/recordings/registered-lists?game=" + encodeURIComponent(g)).catch(() => []) : Promise.resolve([]),
    ]).then(([sampleDoc, lists]) => {
      if (mine !== chosen) return;
      const pick = $("new-registered");
      $("new-decks").hidden = !Object.keys(sampleDoc.deck_lists || {}).length;
      const labels = lists.map(x => x.tournament + " \u00b7 " + x.player);
      if ([...pick.options].slice(1).map(o => o.textContent).join("\n") !== labels.join("\n")) {  // (only when they differ)
        pick.length = 1;
        labels.forEach((label, i) => {
          const o = document.createElement("option"); o.value = String(i); o.textContent = label; pick.appendChild(o);
        });
      }
      registered = lists;
      $("new-registered-box").hidden = !lists.length;
      seats();
    }).catch(err => { asked = ""; throw err; }));  // (asked again on the next change)
  }
  let registered = [], chosen = 0, asked = "";
  function pickRegistered() {
    const x = registered[+$("new-registered").value];
    if (!x) return;
    if (!players().includes(x.player)) {  // a registered player not yet named: into the first free seat
      const free = players().find(p => !(deckBox(p) && deckBox(p).value.trim()));
      const names = players();
      if (free) names[names.indexOf(free)] = x.player; else names.push(x.player);
      $("new-players").value = names.join(",");
      seats();
    }
    deckBox(x.player).value = x.text;
    $("new-registered").value = "";
  }

  function sample() {
    const g = $("new-game").value;
    return filled(fetch("/api/recordings/sample-setup?game=" + encodeURIComponent(g)).then(r => r.json()).then(doc => {
      if ($("new-game").value !== g) return;  // (another game chosen meanwhile: its sample is not this)
      $("new-players").value = doc.players.join(",");
      $("new-setup").value = Object.keys(doc.setup).length ? JSON.stringify(doc.setup) : "";
      $("new-options").value = Object.keys(doc.options).length ? JSON.stringify(doc.options) : "";
      $("new-decks").hidden = !Object.keys(doc.deck_lists || {}).length;
      seats();
      Object.entries(doc.deck_lists || {}).forEach(([p, text]) => { deckBox(p).value = text; });
    })).catch(fail);
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
    $("rec-position").open = wide();  // (a phone: folded away)
    $("new-form").addEventListener("submit", start);
    $("new-sample").addEventListener("click", sample);
    $("new-players").addEventListener("change", seats);
    $("new-game").addEventListener("change", () => gameChosen().catch(fail));
    $("new-registered").addEventListener("change", pickRegistered);
    $("rec-token").addEventListener("change", () => { if (!$("new-box").hidden) gameChosen().catch(fail); });
    $("rec-undo").addEventListener("click", () => enter("undo"));
    $("rec-chain").addEventListener("click", () => setChain(!chainOn()));
    $("rec-waiting").addEventListener("click", () => $("rec-entry").focus());  // (the hint says what to type there)
    $("rec-scene").addEventListener("click", touch);
    $("rec-filter").addEventListener("click", showAll);
    $("rec-entry").addEventListener("input", filterTyped);
    $("rec-confirm-yes").addEventListener("click", () => enter($("rec-confirm").dataset.number));
    $("rec-confirm-no").addEventListener("click", () => { $("rec-confirm").hidden = true; });
    $("rec-store").addEventListener("click", () => {
      document.body.dataset.ready = "0";
      call("POST", "/api/recordings/" + rec.id + "/store").then(show).catch(fail);
    });
    $("rec-entry-form").addEventListener("submit", ev => {
      ev.preventDefault();
      if (entering) return;  // (what is typed stays until the answer before it is in)
      const t = $("rec-entry").value.trim(); $("rec-entry").value = "";
      if (t) pick(t);  // (chained too while "and then…" is on)
      else if (rec && rec.default) pick(String(rec.default));  // Enter alone: the default (a pass)
    });
    const q = new URLSearchParams(location.search);
    if (location.pathname === "/record/judge" && q.get("a") && q.get("b")) {
      judge(q.get("a"), q.get("b"));
      return;
    }
    fetch("/api/games").then(r => r.json()).then(games => {
      const sel = $("new-game");
      games.forEach(g => { const o = document.createElement("option"); o.value = g.id; o.textContent = g.name; sel.appendChild(o); });
      const m = location.pathname.match(/^\/record\/([0-9a-f]{32})$/);
      if (m && token()) return call("GET", "/api/recordings/" + m[1]).then(show);
      return gameChosen().then(() => { document.body.dataset.ready = "1"; });
    }).catch(fail);
  });
})();
