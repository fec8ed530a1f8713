/* The match list (/): filters (game, player, verdict, kept in the URL) and the upload form. */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  let info = null;

  function api(path, opts) {
    return fetch(path, opts).then(r => r.json().then(body => {
      if (!r.ok && !(body && body.status === "refused")) throw new Error(body && body.detail ? body.detail : r.status + " " + r.statusText);
      return body;
    }, () => { throw new Error(r.status + " " + r.statusText); }));
  }
  function td(tr, text, cls) { const c = document.createElement("td"); c.textContent = text; if (cls) c.className = cls; tr.appendChild(c); return c; }

  function filters() {
    const q = new URLSearchParams();
    if ($("f-game").value) q.set("game", $("f-game").value);
    if ($("f-player").value.trim()) q.set("player", $("f-player").value.trim());
    if ($("f-verdict").value) q.set("verdict", $("f-verdict").value);
    ["event", "round"].forEach(k => { const v = $("f-" + k).value.trim(); if (v) q.set(k, v); });
    return q;
  }

  /* The list of the filters as they are now: an answer to filters changed since (a slower one,
     come late) is dropped, not shown under the filters it was not asked for. */
  let loads = 0;
  function load() {
    const q = filters();
    const mine = ++loads;
    history.replaceState(null, "", "/" + (q.toString() ? "?" + q.toString() : ""));
    document.body.dataset.ready = "0";
    return api("/api/matches?" + q.toString()).then(list => {
      if (mine !== loads) return;
      $("list-error").hidden = true;
      const body = $("matches");
      body.textContent = "";
      list.forEach(m => {
        const tr = document.createElement("tr");
        tr.dataset.match = m.match_id;
        tr.className = "verdict-" + m.verdict;
        td(tr, m.game_name, "game");
        const src = td(tr, "", "source");
        const a = document.createElement("a");
        a.href = "/matches/" + m.match_id;
        a.textContent = m.source.split("/").pop();
        a.title = m.source;
        src.appendChild(a);
        td(tr, m.players.join(", "));
        const v = td(tr, m.verdict + (m.violations ? " (" + m.violations + ")" : ""), "verdict");
        v.innerHTML = '<span class="badge verdict-' + m.verdict + '">' + v.textContent + "</span>";
        td(tr, String(m.events), "num");
        td(tr, m.result);
        td(tr, Object.entries(m.meta || {}).map(([k, v]) => k + ": " + v).join("; "), "meta");
        td(tr, m.match_id.slice(0, 8), "mono");
        tr.addEventListener("click", ev => { if (ev.target.tagName !== "A") location.href = a.href; });
        body.appendChild(tr);
      });
      $("count").textContent = list.length + " match" + (list.length === 1 ? "" : "es");
      document.body.dataset.ready = "1";
    }).catch(err => {
      if (mine !== loads) return;
      const e = $("list-error"); e.textContent = err.message; e.hidden = false;
      document.body.dataset.ready = "1";
    });
  }

  function showUpload(res) {
    const box = $("upload-result");
    box.textContent = "";
    box.className = "upload-result verdict-" + res.verdict;
    const head = document.createElement("div");
    head.className = "upload-head";
    head.innerHTML = '<span class="badge verdict-' + res.verdict + '"></span> <span class="status"></span> ';
    head.querySelector(".badge").textContent = res.verdict;
    head.querySelector(".status").textContent = res.game + ", " + res.events + " events: " + res.status +
      (res.status === "refused" ? " (this service does not store illegal logs)" : "");
    if (res.url) {
      const a = document.createElement("a");
      a.href = res.url + (res.violations.length ? "?at=" + res.violations[0].seq : "");
      a.textContent = "open in the viewer";
      a.id = "upload-open";
      head.appendChild(a);
    }
    box.appendChild(head);
    if (res.violations.length) {
      const ul = document.createElement("ul");
      ul.className = "violations";
      res.violations.forEach(v => {
        const li = document.createElement("li");
        li.innerHTML = '<span class="where"></span> <code class="rule-id"></code> <code class="rule-code"></code> <span class="message"></span>';
        li.querySelector(".where").textContent = "line " + v.line + ", event " + v.seq + ":";
        li.querySelector(".rule-id").textContent = v.rule;
        li.querySelector(".rule-code").textContent = v.code;
        li.querySelector(".message").textContent = v.message;
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    box.hidden = false;
  }

  function upload(ev) {
    ev.preventDefault();
    const file = $("upload-file").files[0];
    $("upload-error").hidden = true;
    $("upload-result").hidden = true;
    if (!file) return;
    document.body.dataset.uploaded = "0";
    if (info && file.size > info.max_upload) {
      const e = $("upload-error");
      e.textContent = file.name + ": the file is " + file.size + " bytes, over the limit of " + info.max_upload + " bytes; nothing uploaded";
      e.hidden = false;
      document.body.dataset.uploaded = "1";
      return;
    }
    $("upload-button").disabled = true;
    const token = $("upload-token").value.trim();
    try { sessionStorage.setItem("adjudicator-upload-token", token); } catch (e) { /* private mode */ }
    api("/api/matches?name=" + encodeURIComponent(file.name), {
      method: "POST", body: file,
      headers: { "Content-Type": "application/x-ndjson", "Authorization": "Bearer " + token },
    }).then(res => { showUpload(res); return load(); }).catch(err => {
      const e = $("upload-error"); e.textContent = err.message; e.hidden = false;
    }).finally(() => { $("upload-button").disabled = false; document.body.dataset.uploaded = "1"; });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const q = new URLSearchParams(location.search);
    $("f-player").value = q.get("player") || "";
    $("f-verdict").value = q.get("verdict") || "";
    $("f-event").value = q.get("event") || "";
    $("f-round").value = q.get("round") || "";
    $("upload-form").addEventListener("submit", upload);
    $("filters").addEventListener("submit", ev => { ev.preventDefault(); load(); });
    ["f-game", "f-verdict"].forEach(id => $(id).addEventListener("change", load));
    let t;
    ["f-player", "f-event", "f-round"].forEach(id => $(id).addEventListener("input", () => { clearTimeout(t); t = setTimeout(load, 250); }));
    api("/api/info").then(i => {
      info = i;
      $("upload-limit").textContent = (i.max_upload / 1e6) + " MB";
      if (!i.uploads) {
        $("upload-form").hidden = true;
        document.querySelector(".upload h2").textContent = "Uploads are off (read-only service)";
        const note = document.createElement("p");
        note.className = "hint";
        note.textContent = "Start the service with `adjudicator serve --upload-token TOKEN` to accept uploads.";
        document.querySelector(".upload").appendChild(note);
      }
      try { $("upload-token").value = sessionStorage.getItem("adjudicator-upload-token") || ""; } catch (e) { /* private mode */ }
      if (!i.allow_illegal) document.querySelector(".upload .hint").textContent = "JSON Lines, MatchStarted first; at most " + (i.max_upload / 1e6) + " MB. An illegal log is refused (not stored).";
      $("f-game").innerHTML = '<option value="">all games</option>' + i.games.map(g => '<option value="' + g.id + '">' + g.name + "</option>").join("");
      $("f-game").value = q.get("game") || "";
    }).catch(() => {}).finally(load);
  });
})();
