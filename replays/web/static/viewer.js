/* The match viewer: /matches/{id}?at=N&as=PLAYER.
 * Keys as in the terminal viewer: right/left one event, down/up one turn, Home/End, g go to
 * event N, v cycle the viewpoint, n/p next/previous violation, / search event types, ? help;
 * space plays/pauses.  The URL follows the position (history.replaceState) so a judge can send
 * a link to the exact moment and viewpoint. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const state = {
    id: null, match: null, events: [], violations: [], players: [], labels: {},
    at: 1, view: null, playing: false, timer: null, token: 0, cache: new Map(), lastSearch: "",
    cards: {}, card: null,
  };

  // the token a judge gave this tab (the upload form, "keep with the match"): a match in progress
  // shows its hidden cards, and a seat's view of it, only with it
  function api(path) {
    let token = "";
    try { token = sessionStorage.getItem("adjudicator-token") || sessionStorage.getItem("adjudicator-upload-token") || ""; } catch (e) { /* private mode */ }
    return fetch(path, token ? { headers: { "Authorization": "Bearer " + token } } : {}).then(r => r.json().then(body => {
      if (!r.ok) throw new Error(body && body.detail ? body.detail : r.status + " " + r.statusText);
      return body;
    }));
  }

  function flash(msg, kind) {
    const f = $("flash");
    f.textContent = msg || "";
    f.className = msg ? (kind || "info") : "";
    f.hidden = !msg;
    if (msg && kind !== "error") {
      clearTimeout(flash.t);
      flash.t = setTimeout(() => { if (f.textContent === msg) { f.hidden = true; } }, 4000);
    }
  }

  function setUrl() {
    const q = new URLSearchParams();
    q.set("at", String(state.at));
    if (state.view) q.set("as", state.view);
    if (state.variation) q.set("var", JSON.stringify(state.variation));
    history.replaceState(null, "", "/matches/" + encodeURIComponent(state.id) + "?" + q.toString());
  }

  // -- the event list --------------------------------------------------------------------------
  const MARKS = { legal: "\u2713", illegal: "\u2717", unchecked: "?", derived: "\u00b7",
    stands: "!", "taken-back": "\u21b6", ruling: "\u00a7",  // these three: judges' rulings
    undetermined: "\u25c7" };  // legal only if what the record leaves unknown is as the condition says
  // where n/p stop: violations, undetermined rulings, judges' warnings (replays.core.STOPS)
  const STOPS = new Set(["illegal", "undetermined", "stands", "taken-back"]);
  const JUDGED = {
    stands: "Illegal, but it stands by a judge's ruling: the position continued from it (kept as a warning).",
    "taken-back": "Taken back by a judge's ruling: the position is the one before it.",
    ruling: "A judge's ruling, followed by the verifier.",
  };
  function esc(s) { return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

  // The list is virtual: only the rows in view (and a margin) exist, so a match of 10,000 events
  // steps as fast as a short one.  Every row is ROW pixels high.
  const ROW = 20, MARGIN = 25;
  let rowsFrame = 0;

  function rowHtml(e) {
    const prev = state.events[e.number - 2];
    const start = prev !== undefined && prev.turn !== e.turn;
    return '<li id="ev-' + e.number + '" data-n="' + e.number + '" class="ev mark-' + e.mark + (start ? " turn-start" : "") +
      (e.number === state.at ? " sel" : "") + '" title="' + esc("turn " + e.turn + " \u00b7 " + e.mark + " \u00b7 " + e.type + " \u00b7 " + e.text) +
      '"><span class="num">' + e.number + '</span><span class="mark">' + MARKS[e.mark] + '</span>' +
      // the event in the game's notation (its type is in the title and the ruling); the selected
      // event's full text wraps in the ruling panel, however narrow the screen
      '<span class="etext">' + esc(e.text) + "</span>" +
      (e.note ? '<span class="enote" title="' + esc(e.note) + '">\u270e ' + esc(e.note) + "</span>" : "") + "</li>";
  }

  function renderRows() {
    rowsFrame = 0;
    const list = $("events"), rows = $("events-rows");
    const n = state.events.length;
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - MARGIN);
    const last = Math.min(n, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + MARGIN);
    rows.style.top = (first * ROW) + "px";
    rows.innerHTML = state.events.slice(first, last).map(rowHtml).join("");
  }

  function buildList() {
    const list = $("events");
    $("events-spacer").style.height = (state.events.length * ROW) + "px";
    list.addEventListener("scroll", () => { if (!rowsFrame) rowsFrame = requestAnimationFrame(renderRows); });
    list.addEventListener("click", ev => {
      const li = ev.target.closest("li.ev");
      if (li) { stop(); go(+li.dataset.n); }
    });
    renderRows();
  }

  /** Scroll the event list (not the page) so that event n is in view, and mark it selected. */
  function reveal(n) {
    const list = $("events");
    const top = (n - 1) * ROW;
    if (top < list.scrollTop || top + ROW > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - (list.clientHeight - ROW) / 2);
    }
    renderRows();
  }

  function showEvent(n) {
    const e = state.events[n - 1];
    reveal(n);
    const r = $("ruling");
    r.className = "panel mark-" + (e ? e.mark : "none");
    r.textContent = "";
    if (!e) return;
    const head = document.createElement("div");
    head.className = "ruling-head";
    head.innerHTML = '<span class="ev-no">event ' + e.number + "</span> <span class=\"ev-line\">line " + e.line +
      '</span> <b class="ev-type">' + esc(e.type) + '</b> <span class="badge mark-' + e.mark + '">' + e.mark + "</span>";
    r.appendChild(head);
    const t = document.createElement("div");
    t.className = "ev-text";
    t.textContent = e.text;
    r.appendChild(t);
    if (e.note) {
      const note = document.createElement("div");
      note.className = "ev-note";
      note.textContent = "\u270e " + e.note;
      r.appendChild(note);
    }
    if (e.rule || e.code) {
      const rule = document.createElement("div");
      rule.className = "rule";
      rule.innerHTML = '<code class="rule-id">' + esc(e.rule) + '</code> <code class="rule-code">' + esc(e.code) + "</code>";
      r.appendChild(rule);
    }
    const msg = document.createElement("p");
    msg.className = "message";
    msg.textContent = e.message;
    r.appendChild(msg);
    if (e.condition) r.appendChild(Object.assign(document.createElement("p"), { className: "condition", textContent: "legal if " + e.condition }));
    if (e.mark === "undetermined") r.appendChild(Object.assign(document.createElement("p"), { className: "hint", textContent: "Undetermined: legal only if what the record leaves unknown is as the condition says; the position follows it as if it is." }));
    if (e.mark === "unchecked") r.appendChild(Object.assign(document.createElement("p"), { className: "hint", textContent: "Accepted without an engine check: the engine cannot model this effect." }));
    if (JUDGED[e.mark]) r.appendChild(Object.assign(document.createElement("p"), { className: "hint judged", textContent: JUDGED[e.mark] }));
    if (e.mark === "derived") r.appendChild(Object.assign(document.createElement("p"), { className: "hint", textContent: "A consequence the rules force, stated in the log and confirmed by the engine." }));
    if (e.derived && e.derived.length) {
      const ul = document.createElement("ul");
      ul.className = "derived";
      e.derived.forEach(d => { const li2 = document.createElement("li"); li2.textContent = "then: " + d; ul.appendChild(li2); });
      r.appendChild(ul);
    }
  }

  // -- positions -------------------------------------------------------------------------------
  function fetchPosition(n, view) {
    const key = n + "|" + (view || "");
    if (state.cache.has(key)) return Promise.resolve(state.cache.get(key));
    const q = "at=" + n + (view ? "&as=" + encodeURIComponent(view) : "");
    return api("/api/matches/" + encodeURIComponent(state.id) + "/position?" + q).then(p => {
      state.cache.set(key, p);
      if (state.cache.size > 400) state.cache.delete(state.cache.keys().next().value);
      return p;
    });
  }

  // the event list as one viewpoint saw it: a player's list masks what they could not see
  // every event of the match, as one viewpoint saw it: the API answers in pages (at most
  // 10,000 events each), fetched one after another and joined
  function fetchEvents(view) {
    const base = "/api/matches/" + encodeURIComponent(state.id) + "/events?limit=5000" +
      (view ? "&as=" + encodeURIComponent(view) : "");
    const events = [];
    function page(from) {
      return api(base + "&from=" + from).then(doc => {
        events.push(...doc.events);
        if (doc.next) return page(doc.next);
        doc.events = events;
        return doc;
      });
    }
    return page(1);
  }

  function loadEvents(view) {
    return fetchEvents(view).then(doc => {
      state.events = doc.events;
      state.violations = doc.violations;
      state.eventsView = view || null;
      buildList();
    });
  }

  function go(n, view) {
    if (!state.events.length) return Promise.resolve();
    if (view === undefined) view = state.view;
    if ((view || null) !== state.eventsView) {
      return loadEvents(view || null).then(() => go(n, view), err => flash(err.message, "error"));
    }
    n = Math.max(1, Math.min(state.events.length, n | 0));
    if (state.variation && !state.keepVariation) leaveVariation(false);
    state.keepVariation = false;
    const token = ++state.token;
    document.body.dataset.ready = "0";
    state.at = n;
    state.view = view || null;
    showEvent(n);
    $("pos").textContent = n + " / " + state.events.length;
    $("download-position").href = "/api/matches/" + encodeURIComponent(state.id) + "/document?at=" + n +
      (view ? "&as=" + encodeURIComponent(view) : "");
    $("download-replay").href = "/api/matches/" + encodeURIComponent(state.id) + "/export.html" +
      (view ? "?as=" + encodeURIComponent(view) : "");
    $("at-input").value = n;
    $("view").value = state.view || "";
    setUrl();
    return fetchPosition(n, state.view).then(p => {
      if (token !== state.token) return;
      SceneView.render($("scene"), p.scene, { cards: p.cards || {} });
      state.cards = p.cards || {};
      showCard(state.card && state.cards[state.card] ? state.card : null);
      markTouched(p.touched || [], p.mark);
      const ch = $("changes");
      ch.textContent = "";
      (p.changes.length ? p.changes : ["no visible change"]).forEach(c => {
        const li = document.createElement("li"); li.textContent = c; ch.appendChild(li);
      });
      if ($("legal").open) loadLegal();
      reveal(n); // the panels above the list may have grown
      document.body.dataset.at = String(n);
      document.body.dataset.view = state.view || "";
      document.body.dataset.ready = "1";
      if (state.playing) schedule();
    }).catch(err => {
      if (token !== state.token) return;
      flash(err.message, "error");
      if (state.view && /unknown player/.test(err.message)) { go(n, null); return; }
      document.body.dataset.ready = "1";
      stop();
    });
  }

  // -- card text: hover a card for its text (its title), select it for the card panel ------------
  function showCard(id) {
    const info = id ? state.cards[id] : null;
    state.card = info ? id : null;
    const box = $("card-panel");
    box.hidden = !info;
    $("card-possible").hidden = true;
    document.querySelectorAll("#scene .card.selected").forEach(c => c.classList.remove("selected"));
    if (!info) return;
    document.querySelectorAll('#scene [data-pool-card="' + CSS.escape(id) + '"]').forEach(c => c.classList.add("selected"));
    $("card-name").textContent = info.name;
    $("card-facts").textContent = (info.facts || []).join(" \u00b7 ");
    $("card-text").textContent = info.text || "(no text)";
    $("card-id").textContent = info.id;
  }

  // an unknown card selected: what it can still be (names from the position's card texts)
  function showUnknown(g) {
    showCard(null);
    const ids = (g.getAttribute("data-possible") || "").split(" ").filter(Boolean);
    g.classList.add("selected");
    $("card-panel").hidden = false;
    $("card-name").textContent = "Unknown card";
    $("card-id").textContent = "";
    $("card-facts").textContent = ids.length ? "can still be " + ids.length + ":" : "can be no card of the pool";
    $("card-text").textContent = "";
    const ul = $("card-possible");
    ul.textContent = "";
    ids.forEach(id => {
      const li = document.createElement("li");
      li.appendChild(document.createTextNode((state.cards[id] ? state.cards[id].name : id) + " "));
      li.appendChild(Object.assign(document.createElement("code"), { textContent: id }));
      ul.appendChild(li);
    });
    ul.hidden = false;
  }

  function onSceneClick(ev) {
    const u = ev.target.closest ? ev.target.closest("[data-possible]") : null;
    if (u) { showUnknown(u); return; }
    const g = ev.target.closest ? ev.target.closest("[data-pool-card]") : null;
    if (g) showCard(g.getAttribute("data-pool-card"));
  }

  function fillLegal(l) {
    const box = $("legal-list");
    box.textContent = "";
    const head = document.createElement("div");
    head.className = "legal-head";
    head.textContent = l.outcome ? "The match is over: " + l.outcome : "to act: " + (l.to_act.join(", ") || "nobody") + "; " + l.count + " legal events" + (l.count > l.events.length ? " (first " + l.events.length + " shown)" : "") +
      (l.hidden ? "; " + l.hidden + " more this seat cannot see" : "");
    box.appendChild(head);
    const ul = document.createElement("ul");
    l.events.forEach(e => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.className = "try";
      b.textContent = "\u25B6";
      b.title = "try it: play this event in a variation (analysis board)";
      b.setAttribute("aria-label", "try " + e.text + " in a variation");
      b.addEventListener("click", () => tryEvent(e.event));
      li.appendChild(b);
      li.appendChild(document.createTextNode(" " + e.text));
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }

  // what the selected event concerns (a move's path, the card played, an attack's target),
  // marked on the scene; an illegal event's in red
  function markTouched(ids, mark) {
    const scene = $("scene");
    let found = 0;
    ids.forEach(id => {
      const sel = ["data-cell", "data-card", "data-piece"].map(a => "[" + a + '="' + CSS.escape(id) + '"]').join(",");
      scene.querySelectorAll(sel).forEach(node => {
        node.classList.add("touched");
        if (mark === "illegal" || mark === "stands") node.classList.add("touched-illegal");
        found++;
      });
    });
    document.body.dataset.touched = String(found);
  }

  function loadLegal() {
    const box = $("legal-list");
    if (state.variation) { if (state.varLegal) fillLegal(state.varLegal); return; }
    const at = state.at;
    box.textContent = "loading\u2026";
    api("/api/matches/" + encodeURIComponent(state.id) + "/legal?at=" + at + "&limit=200" +
        (state.view ? "&as=" + encodeURIComponent(state.view) : "")).then(l => {
      if (at !== state.at || state.variation) return;
      fillLegal(l);
    }).catch(err => { box.textContent = err.message; });
  }

  // -- the analysis board: variations from any position ---------------------------------------
  function variationQuery(events) {
    return "at=" + state.at + "&var=" + encodeURIComponent(JSON.stringify(events)) +
      (state.view ? "&as=" + encodeURIComponent(state.view) : "");
  }

  /* A variation is asked for one step at a time: an event tried comes from the legal list of the
     position shown, so a second "try" before the first one's answer is not sent (it would stand
     on a variation that does not hold the first, and drop it), and "keep" waits for the answer
     on its way (the variation kept is the one shown once it is in). */
  function tryEvent(ev) {
    if (state.varPending) return;
    stop();
    showVariation((state.variation || []).concat([ev]));
  }

  function showVariation(events) {
    document.body.dataset.ready = "0";
    const token = ++state.token;
    const pending = state.varPending = api("/api/matches/" + encodeURIComponent(state.id) + "/variation?" + variationQuery(events)).then(v => {
      if (token !== state.token) return;
      // the legal events are kept; an illegal one tried is shown with its ruling, not kept
      state.variation = v.steps.slice(0, v.applied).map(st => st.event);
      state.varLegal = v.legal;
      SceneView.render($("scene"), v.scene, {});
      const box = $("variation");
      box.hidden = false;
      $("variation-from").textContent = "after event " + state.at;
      const ol = $("variation-steps");
      ol.textContent = "";
      v.steps.forEach(st => {
        const li = document.createElement("li");
        li.className = "mark-" + (st.verdict === "legal" || st.verdict === "undetermined" ? st.verdict : "illegal");
        li.textContent = st.text + " \u2014 " + st.verdict + " " + st.rule + (st.verdict === "legal" ? "" : ": " + st.message) +
          (st.condition ? " (legal if " + st.condition + ")" : "") +
          (st.derived.length ? " (then: " + st.derived.join("; ") + ")" : "");
        ol.appendChild(li);
      });
      $("variation-save").href = "/api/matches/" + encodeURIComponent(state.id) + "/variation.jsonl?" + variationQuery(state.variation);
      const last = v.steps[v.steps.length - 1];
      $("variation-status").textContent = last && last.verdict !== "legal" ? "illegal here: " + last.rule + " " + last.message
        : (v.legal.outcome ? "the match is over: " + v.legal.outcome : "to act: " + v.legal.to_act.join(", "));
      $("legal").open = true;
      fillLegal(v.legal);
      setUrl();
      document.body.dataset.variation = String(state.variation.length);
      document.body.dataset.ready = "1";
    }).catch(err => { flash(err.message, "error"); document.body.dataset.ready = "1"; })
      .finally(() => { if (state.varPending === pending) state.varPending = null; });
    return pending;
  }

  // several variations per match: each one left is kept (for this browser session) as a link
  function savedKey() { return "adjudicator-variations-" + state.id; }
  function savedVariations() {
    try { return JSON.parse(sessionStorage.getItem(savedKey()) || "[]"); } catch (e) { return []; }
  }
  function keepVariation(at, events) {
    const all = savedVariations().filter(v => !(v.at === at && JSON.stringify(v.events) === JSON.stringify(events)));
    all.push({ at: at, events: events });
    try { sessionStorage.setItem(savedKey(), JSON.stringify(all.slice(-20))); } catch (e) { /* private mode */ }
    listVariations();
  }
  function listVariations() {
    const all = savedVariations();
    const box = $("variations");
    box.hidden = !all.length && !$("variations-list").querySelector("li.stored");
    const ul = $("variations-list");
    [...ul.querySelectorAll("li:not(.stored)")].forEach(li => li.remove());
    all.forEach((v, i) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "/matches/" + encodeURIComponent(state.id) + "?at=" + v.at + "&var=" + encodeURIComponent(JSON.stringify(v.events));
      a.textContent = "after event " + v.at + ": " + v.events.length + " event" + (v.events.length === 1 ? "" : "s");
      a.addEventListener("click", ev => { ev.preventDefault(); go(v.at).then(() => showVariation(v.events)); });
      const x = document.createElement("button");
      x.textContent = "\u00d7";
      x.setAttribute("aria-label", "forget this variation");
      x.addEventListener("click", () => {
        const rest = savedVariations().filter((_, j) => j !== i);
        try { sessionStorage.setItem(savedKey(), JSON.stringify(rest)); } catch (e) { /* private mode */ }
        listVariations();
      });
      li.appendChild(a); li.appendChild(document.createTextNode(" ")); li.appendChild(x);
      ul.appendChild(li);
    });
  }

  // variations kept with the stored match (POST with the upload token), listed for everyone
  function keepWithMatch() {
    if (state.varPending) { state.varPending.then(keepWithMatch); return; }
    if (!state.variation || !state.variation.length) return;
    let token = sessionStorage.getItem("adjudicator-token") || "";
    if (!token) token = (window.prompt("the service's upload token") || "").trim();
    if (!token) return;
    fetch("/api/matches/" + encodeURIComponent(state.id) + "/variations", {
      method: "POST", headers: { "Authorization": "Bearer " + token, "Content-Type": "application/json" },
      body: JSON.stringify({ at: state.at, events: state.variation }),
    }).then(r => r.json().then(doc => {
      if (!r.ok) throw new Error(doc && doc.detail ? doc.detail : r.status + " " + r.statusText);
      sessionStorage.setItem("adjudicator-token", token);
      flash("kept with the match as variation " + doc.number, "info");
      return listStored();
    })).catch(err => flash(err.message, "error"));
  }
  function listStored() {
    return api("/api/matches/" + encodeURIComponent(state.id) + "/variations").then(list => {
      const ul = $("variations-list");
      [...ul.querySelectorAll("li.stored")].forEach(li => li.remove());
      list.forEach(v => {
        const li = document.createElement("li");
        li.className = "stored";
        const a = document.createElement("a");
        a.href = v.url;
        a.textContent = "kept " + v.number + (v.name ? " (" + v.name + ")" : "") + ": after event " + v.at + ", " +
          v.events.length + " event" + (v.events.length === 1 ? "" : "s");
        a.addEventListener("click", ev => { ev.preventDefault(); go(v.at).then(() => showVariation(v.events)); });
        li.appendChild(a);
        ul.appendChild(li);
      });
      if (list.length) $("variations").hidden = false;
      document.body.dataset.kept = String(list.length);
    }).catch(() => { /* the list stays as it is */ });
  }

  function leaveVariation(redraw) {
    if (state.variation && state.variation.length) keepVariation(state.at, state.variation);
    state.variation = null;
    state.varLegal = null;
    $("variation").hidden = true;
    document.body.dataset.variation = "";
    if (redraw) go(state.at);
  }

  // -- moves -----------------------------------------------------------------------------------
  function turnOf(n) { return state.events[n - 1].turn; }
  function nextTurn(n) {
    const t = turnOf(n);
    for (let i = n; i < state.events.length; i++) if (state.events[i].turn !== t) return i + 1;
    return state.events.length;
  }
  function previousTurn(n) {
    let i = n - 1;
    const t = turnOf(n);
    let start = i;
    while (start > 0 && state.events[start - 1].turn === t) start--;
    if (start < i) return start + 1;
    if (start === 0) return 1;
    const pt = state.events[start - 1].turn;
    let j = start - 1;
    while (j > 0 && state.events[j - 1].turn === pt) j--;
    return j + 1;
  }
  function violation(forward) {
    const v = state.events.filter(e => STOPS.has(e.mark)).map(e => e.number);
    const hit = forward ? v.find(x => x > state.at) : [...v].reverse().find(x => x < state.at);
    if (hit === undefined) { flash(v.length ? "no " + (forward ? "later" : "earlier") + " violation" : "this match has no violations"); return; }
    go(hit);
  }
  function search(text) {
    const t = text.trim().toLowerCase();
    if (!t) return;
    state.lastSearch = text;
    const match = e => e.type.toLowerCase().includes(t);
    let hit = state.events.slice(state.at).find(match);
    if (!hit) { // wrap to the start, as the terminal viewer does
      hit = state.events.slice(0, state.at - 1).find(match);
      if (hit) flash("search wrapped to the start");
    }
    if (!hit) { flash("no other event type matching \u201c" + text + "\u201d"); return; }
    go(hit.number);
  }
  function cycleView() {
    const order = [null].concat(state.players);
    const i = order.indexOf(state.view);
    go(state.at, order[(i + 1) % order.length]);
  }

  // -- play ------------------------------------------------------------------------------------
  function schedule() {
    clearTimeout(state.timer);
    if (!state.playing) return;
    if (state.at >= state.events.length) { stop(); return; }
    state.timer = setTimeout(() => go(state.at + 1), 1000 / +$("speed").value);
  }
  function play() {
    if (state.at >= state.events.length) go(1);
    state.playing = true;
    $("play").textContent = "\u23f8 pause";
    $("play").classList.add("on");
    document.body.dataset.playing = "1";
    schedule();
  }
  function stop() {
    state.playing = false;
    clearTimeout(state.timer);
    $("play").textContent = "\u25b6 play";
    $("play").classList.remove("on");
    document.body.dataset.playing = "0";
  }
  function toggle() { if (state.playing) stop(); else play(); }

  // -- prompt and help -------------------------------------------------------------------------
  function ask(label, initial, done) {
    const box = $("prompt");
    $("prompt-label").textContent = label;
    const input = $("prompt-input");
    input.value = initial || "";
    box.hidden = false;
    input.focus();
    input.select();
    box.onsubmit = ev => { ev.preventDefault(); box.hidden = true; input.blur(); done(input.value); };
  }
  function closeOverlays() { $("prompt").hidden = true; $("help").hidden = true; }

  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const tag = ev.target && ev.target.tagName;
    if (ev.key === "Escape") { closeOverlays(); ev.target.blur && ev.target.blur(); return; }
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (!$("help").hidden && ev.key !== "?") { $("help").hidden = true; }
    let handled = true;
    switch (ev.key) {
      case "ArrowRight": stop(); go(state.at + 1); break;
      case "ArrowLeft": stop(); go(state.at - 1); break;
      case "ArrowDown": stop(); go(nextTurn(state.at)); break;
      case "ArrowUp": stop(); go(previousTurn(state.at)); break;
      case "Home": stop(); go(1); break;
      case "End": stop(); go(state.events.length); break;
      case "g": stop(); ask("go to event (1-" + state.events.length + ")", "", v => { const n = parseInt(v, 10); if (n >= 1 && n <= state.events.length) go(n); else flash("no event " + v + " (events 1-" + state.events.length + ")"); }); break;
      case "v": cycleView(); break;
      case "n": stop(); violation(true); break;
      case "p": stop(); violation(false); break;
      case "/": stop(); ask("search event types", state.lastSearch, search); break;
      case "?": $("help").hidden = !$("help").hidden; break;
      case " ": toggle(); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  }

  // -- start -----------------------------------------------------------------------------------
  function start() {
    const m = /^\/matches\/([^/]+)/.exec(location.pathname);
    state.id = m ? decodeURIComponent(m[1]) : "";
    const q = new URLSearchParams(location.search);
    const at = q.has("at") ? parseInt(q.get("at"), 10) : null;
    const view = q.get("as") || null;
    document.addEventListener("keydown", onKey);
    $("play").addEventListener("click", () => { toggle(); $("play").blur(); });
    $("first").addEventListener("click", () => { stop(); go(1); });
    $("prev").addEventListener("click", () => { stop(); go(state.at - 1); });
    $("next").addEventListener("click", () => { stop(); go(state.at + 1); });
    $("last").addEventListener("click", () => { stop(); go(state.events.length); });
    $("view").addEventListener("change", () => { go(state.at, $("view").value || null); $("view").blur(); });
    $("speed").addEventListener("change", () => { if (state.playing) schedule(); $("speed").blur(); });
    $("at-form").addEventListener("submit", ev => { ev.preventDefault(); stop(); go(parseInt($("at-input").value, 10) || 1); $("at-input").blur(); });
    $("help-button").addEventListener("click", () => { $("help").hidden = !$("help").hidden; });
    $("scene").addEventListener("click", onSceneClick);
    $("card-close").addEventListener("click", () => showCard(null));
    $("variation-undo").addEventListener("click", () => {
      const evs = (state.variation || []).slice(0, -1);
      if (evs.length) showVariation(evs); else leaveVariation(true);
    });
    $("variation-leave").addEventListener("click", () => leaveVariation(true));
    $("help").addEventListener("click", () => { $("help").hidden = true; });
    $("legal").addEventListener("toggle", () => { if ($("legal").open) loadLegal(); });
    $("variation-keep").addEventListener("click", keepWithMatch);
    let resize;
    window.addEventListener("resize", () => { clearTimeout(resize); resize = setTimeout(() => { const p = state.cache.get(state.at + "|" + (state.view || "")); if (p) SceneView.render($("scene"), p.scene, {}); }, 150); });
    fetchEvents(null).then(doc => {
      state.match = doc.match;
      state.events = doc.events;
      state.eventsView = null;
      state.violations = doc.violations;
      state.id = doc.match.match_id;
      state.players = doc.match.players;
      document.title = doc.match.game_name + " \u00b7 " + doc.match.source.split("/").pop() + " \u00b7 adjudicator";
      $("title").textContent = doc.match.game_name + " \u00b7 " + doc.match.source.split("/").pop();
      $("title").title = doc.match.source + "\nmatch " + doc.match.match_id;
      const badge = $("verdict");
      badge.textContent = doc.match.verdict + (doc.match.violations ? " (" + doc.match.violations + ")" : "") + " \u00b7 " + doc.match.result;
      badge.className = "badge verdict-" + doc.match.verdict;
      badge.title = badge.textContent;
      const header = Object.entries(doc.match.meta || {}).map(([k, v]) => k + ": " + v).join(" \u00b7 ");
      $("meta").textContent = header;
      $("meta").hidden = !header;
      const sel = $("view");
      sel.innerHTML = '<option value="">judge (everything)</option>' + state.players.map(p => '<option value="' + esc(p) + '">' + esc(p) + "</option>").join("");
      $("at-input").max = state.events.length;
      buildList();
      // an illegal match opens at its first violation (a judge's first question); ?at= wins
      let n = at === null || isNaN(at) ? (state.violations.length ? state.violations[0] : 1) : at;
      $("download-log").href = "/api/matches/" + encodeURIComponent(state.id) + "/log";
      if (n < 1 || n > state.events.length) { flash("event " + n + " is outside the match (events 1-" + state.events.length + "): showing the nearest", "error"); }
      if (view && !state.players.includes(view)) { flash("unknown player \u201c" + view + "\u201d (players: " + state.players.join(", ") + "): showing the judge's view", "error"); return go(n, null); }
      listVariations();
      listStored();
      let shared = null;
      try { shared = q.has("var") ? JSON.parse(q.get("var")) : null; } catch (e) { flash("var: not a list of events", "error"); }
      return go(n, view).then(() => { if (Array.isArray(shared) && shared.length) return showVariation(shared); });
    }).catch(err => {
      flash(err.message, "error");
      $("title").textContent = "no match";
      document.body.dataset.ready = "1";
    });
  }

  document.addEventListener("DOMContentLoaded", start);
})();
