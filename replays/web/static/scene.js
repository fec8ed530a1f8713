/* Draws a Scene (adjudicator/core/kernel/scene.py) as SVG and HTML.  Generic over every game: it
 * knows boards (grid, hex, graph) with levels, terrain, pieces, markers and controllers; zones
 * of cards (face up, face down, counted); counters; notes.  Fields equal to their default are
 * omitted from the JSON (msgspec omit_defaults), so every list may be missing. */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";

  // -- colours ---------------------------------------------------------------------------------
  const NAMED = {
    white: "#f3efe4", black: "#34313a", blue: "#3b6fd6", red: "#d2463d", green: "#3b9a4a",
    yellow: "#e2b425", orange: "#e8862a", purple: "#8650c8", pink: "#d2629a", cyan: "#28a9b8",
    teal: "#2a9d8f", brown: "#8b5a2b", grey: "#8d8d8d", gray: "#8d8d8d", gold: "#d8ac2f",
    silver: "#b8bcc4", violet: "#8650c8", neutral: "#a7a29a",
  };
  const PALETTE = ["#3b6fd6", "#d2463d", "#3b9a4a", "#e2b425", "#8650c8", "#e8862a", "#2a9d8f", "#d2629a"];
  const TERRAIN = {
    board: "#ece4cf", plain: "#e4e9c6", plains: "#e4e9c6", grass: "#c9e2a6", field: "#dfe8b0",
    woods: "#8fbf72", wood: "#8fbf72", forest: "#7bb062", jungle: "#5f9e4f",
    hills: "#d2b97f", hill: "#d2b97f", mountains: "#a99d92", mountain: "#a99d92", rock: "#b4aca4",
    citadel: "#e9c75a", castle: "#e9c75a", water: "#93c6ea", sea: "#7fb6e2", lake: "#93c6ea",
    river: "#9fcdee", desert: "#eedca3", sand: "#eedca3", swamp: "#9fb088", marsh: "#9fb088",
    snow: "#f2f5f8", ice: "#dfeef6", lava: "#dd6f4f", ruins: "#bfb1a3", road: "#d9d0c0",
    unexplored: "#6d6a66", void: "#4a4846", start: "#f0d9b5",
  };

  function hash(s) {
    let h = 2166136261;
    for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }
  function named(name) {
    if (!name) return null;
    const key = String(name).toLowerCase();
    if (NAMED[key]) return NAMED[key];
    if (/^#[0-9a-f]{3,8}$/i.test(key)) return key;
    return "hsl(" + (hash(key) % 360) + ", 55%, 52%)";
  }
  function terrainColour(t) {
    if (!t) return null;
    const key = String(t).toLowerCase();
    if (TERRAIN[key]) return TERRAIN[key];
    const word = key.split(/[^a-z]+/).find(w => TERRAIN[w]);
    if (word) return TERRAIN[word];
    return "hsl(" + (hash(key) % 360) + ", 42%, 80%)";
  }
  function levelColour(level) {
    const l = Math.max(0, Math.min(6, level | 0));
    return "hsl(34, 38%, " + (92 - l * 9) + "%)";
  }
  function luminance(css) {
    const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(css || "");
    if (!m) { const h = /hsl\([^,]+,[^,]+,\s*([\d.]+)%/.exec(css || ""); return h ? +h[1] / 100 : 0.5; }
    const [r, g, b] = [m[1], m[2], m[3]].map(x => parseInt(x, 16) / 255);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  /** A marker's colour: a colour it names (``loot:gold``), else one per kind (``crystal``). */
  function markerColour(m) {
    const parts = String(m).toLowerCase().split(/[:/ ]/);
    const colour = parts.slice().reverse().find(p => NAMED[p]);
    if (colour) return NAMED[colour];
    return parts[0] === "crystal" ? NAMED.cyan : named(parts[0]);
  }
  function ink(fill) { return luminance(fill) > 0.55 ? "#1d1d1f" : "#ffffff"; }

  /** owner id -> colour, from the scene's players (their colour name, else a palette). */
  function playerColours(scene) {
    const out = {};
    (scene.players || []).forEach((p, i) => { out[p.id] = named(p.colour) || PALETTE[i % PALETTE.length]; });
    return out;
  }
  function ownerColour(colours, owner) {
    if (!owner) return "#9a968f";
    if (!colours[owner]) colours[owner] = PALETTE[hash(owner) % PALETTE.length];
    return colours[owner];
  }

  // -- svg helpers -----------------------------------------------------------------------------
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs || {}) if (attrs[k] !== undefined && attrs[k] !== null) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function text(parent, x, y, s, attrs) {
    const t = el("text", Object.assign({ x: x, y: y }, attrs || {}), parent);
    t.textContent = s;
    return t;
  }
  function title(parent, s) { const t = el("title", {}, parent); t.textContent = s; return t; }
  function h(tag, cls, content) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (content !== undefined) e.textContent = content;
    return e;
  }
  function polygon(points) { return points.map(p => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" "); }

  const KIND_SHAPES = {
    warrior: "circle", soldier: "circle", pawn: "circle", acolyte: "circle", unit: "circle",
    guardian: "square", knight: "square", tower: "square",
    colossus: "hexagon", king: "hexagon", hero: "hexagon", leader: "hexagon",
    banner: "flag", flag: "flag", beast: "diamond", monster: "diamond", token: "diamond",
  };
  const SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "star"];
  function shapeOf(kind) {
    if (!kind) return "circle";
    const k = kind.toLowerCase();
    return KIND_SHAPES[k] || SHAPES[hash(k) % SHAPES.length];
  }
  function drawShape(g, shape, cx, cy, r, attrs) {
    let pts;
    switch (shape) {
      case "square": return el("rect", Object.assign({ x: cx - r * 0.88, y: cy - r * 0.88, width: r * 1.76, height: r * 1.76, rx: r * 0.2 }, attrs), g);
      case "triangle": pts = [[cx, cy - r], [cx + r * 0.95, cy + r * 0.75], [cx - r * 0.95, cy + r * 0.75]]; break;
      case "diamond": pts = [[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]]; break;
      case "hexagon": pts = [0, 1, 2, 3, 4, 5].map(i => [cx + r * Math.cos(Math.PI / 3 * i), cy + r * Math.sin(Math.PI / 3 * i)]); break;
      case "star": pts = [];
        for (let i = 0; i < 10; i++) { const rr = i % 2 ? r * 0.48 : r; const a = -Math.PI / 2 + i * Math.PI / 5; pts.push([cx + rr * Math.cos(a), cy + rr * Math.sin(a)]); }
        break;
      case "flag": pts = [[cx - r * 0.7, cy - r], [cx + r, cy - r * 0.45], [cx - r * 0.3, cy + r * 0.05], [cx - r * 0.3, cy + r], [cx - r * 0.7, cy + r]]; break;
      default: return el("circle", Object.assign({ cx: cx, cy: cy, r: r }, attrs), g);
    }
    return el("polygon", Object.assign({ points: polygon(pts) }, attrs), g);
  }

  // -- boards ----------------------------------------------------------------------------------
  /** Cell centres and the cell outline function for a board; also the drawing size. */
  function layout(board, maxWidth) {
    const cells = board.cells || [];
    const kind = board.kind;
    if (kind === "grid") {
      const w = Math.max(board.width || 0, ...cells.map(c => c.x + 1), 1);
      const hgt = Math.max(board.height || 0, ...cells.map(c => c.y + 1), 1);
      const s = Math.max(26, Math.min(62, Math.floor((maxWidth - 40) / w)));
      const m = 22;
      return {
        size: s, width: m * 2 + w * s, height: m * 2 + hgt * s, margin: m, cols: w, rows: hgt,
        centre: c => [m + c.x * s + s / 2, m + c.y * s + s / 2],
        outline: (g, c, attrs) => el("rect", Object.assign({ x: m + c.x * s + 0.5, y: m + c.y * s + 0.5, width: s - 1, height: s - 1 }, attrs), g),
        inner: (g, c, attrs) => el("rect", Object.assign({ x: m + c.x * s + 3, y: m + c.y * s + 3, width: s - 6, height: s - 6 }, attrs), g),
        badge: c => [m + c.x * s + 2, m + c.y * s + 2],
        marker: c => [m + c.x * s + s - 7, m + c.y * s + 7],
        label: c => [m + c.x * s + s / 2, m + c.y * s + s - 3],
      };
    }
    if (kind === "hex") {
      // pointy-top hexagons; y is a row, x a column: either offset rows (odd rows shifted half a
      // hexagon) or columns that already carry the half-steps (doubled columns: 0, 2, 4 / 1, 3, 5)
      const byRow = {};
      cells.forEach(c => { (byRow[c.y] = byRow[c.y] || []).push(c.x); });
      let unitX = Infinity;
      Object.values(byRow).forEach(xs => {
        xs.sort((a, b) => a - b);
        for (let i = 1; i < xs.length; i++) if (xs[i] > xs[i - 1]) unitX = Math.min(unitX, xs[i] - xs[i - 1]);
      });
      if (!isFinite(unitX)) unitX = 1;
      const ys = [...new Set(cells.map(c => c.y))].sort((a, b) => a - b);
      let unitY = Infinity;
      for (let i = 1; i < ys.length; i++) unitY = Math.min(unitY, ys[i] - ys[i - 1]);
      if (!isFinite(unitY)) unitY = 1;
      const minX = Math.min(...cells.map(c => c.x)), minY = ys.length ? ys[0] : 0;
      const frac = v => { const f = v - Math.floor(v); return Math.min(f, 1 - f); };
      const halfSteps = cells.some(c => frac((c.x - minX) / unitX) > 0.25);
      const row = c => Math.round((c.y - minY) / unitY);
      const col = c => (c.x - minX) / unitX + (!halfSteps && row(c) % 2 ? 0.5 : 0);
      const maxCol = Math.max(0, ...cells.map(col)), maxRow = Math.max(0, ...cells.map(row));
      const m = 12;
      const W = Math.max(30, Math.min(96, Math.floor((maxWidth - 2 * m) / (maxCol + 1))));
      const R = W / Math.sqrt(3);
      const centre = c => [m + col(c) * W + W / 2, m + R + row(c) * 1.5 * R];
      const hex = (c, shrink) => {
        const [cx, cy] = centre(c);
        const r = R - shrink;
        return polygon([0, 1, 2, 3, 4, 5].map(i => [cx + r * Math.cos(Math.PI / 6 + Math.PI / 3 * i), cy + r * Math.sin(Math.PI / 6 + Math.PI / 3 * i)]));
      };
      return {
        size: W * 0.92, width: 2 * m + (maxCol + 1) * W, height: 2 * m + 2 * R + maxRow * 1.5 * R, margin: m,
        centre: centre,
        outline: (g, c, attrs) => el("polygon", Object.assign({ points: hex(c, 0.5) }, attrs), g),
        inner: (g, c, attrs) => el("polygon", Object.assign({ points: hex(c, 3.5) }, attrs), g),
        badge: c => { const [cx, cy] = centre(c); return [cx - W / 2 + 5, cy - R / 2 + 1]; },
        marker: c => { const [cx, cy] = centre(c); return [cx + W / 2 - 8, cy - R / 2 + 6]; },
        label: c => { const [cx, cy] = centre(c); return [cx, cy + R * 0.7]; },
      };
    }
    // graph: layout coordinates, scaled to fit; cells are discs
    const xs = cells.map(c => c.x), ys = cells.map(c => c.y);
    const minX = Math.min(...xs, 0), maxX = Math.max(...xs, 1), minY = Math.min(...ys, 0), maxY = Math.max(...ys, 1);
    let minD = Infinity;
    for (let i = 0; i < cells.length; i++) for (let j = i + 1; j < cells.length; j++) {
      const d = Math.hypot(cells[i].x - cells[j].x, cells[i].y - cells[j].y);
      if (d > 0) minD = Math.min(minD, d);
    }
    if (!isFinite(minD)) minD = 1;
    const scale = Math.min((maxWidth - 80) / Math.max(maxX - minX, minD), 90 / minD);
    const r = Math.max(14, Math.min(34, minD * scale * 0.38));
    const m = r + 8;
    const centre = c => [m + (c.x - minX) * scale, m + (c.y - minY) * scale];
    return {
      size: r * 1.7, width: 2 * m + (maxX - minX) * scale, height: 2 * m + (maxY - minY) * scale, margin: m,
      centre: centre,
      outline: (g, c, attrs) => { const [cx, cy] = centre(c); return el("circle", Object.assign({ cx: cx, cy: cy, r: r }, attrs), g); },
      inner: (g, c, attrs) => { const [cx, cy] = centre(c); return el("circle", Object.assign({ cx: cx, cy: cy, r: r - 3 }, attrs), g); },
      badge: c => { const [cx, cy] = centre(c); return [cx - r * 0.62 - 5, cy - r * 0.62 - 5]; },
      marker: c => { const [cx, cy] = centre(c); return [cx + r * 0.6, cy - r * 0.6]; },
      label: c => { const [cx, cy] = centre(c); return [cx, cy + r - 4]; },
    };
  }

  function drawBoard(svg, board, colours, maxWidth) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const L = layout(board, maxWidth);
    svg.setAttribute("viewBox", "0 0 " + L.width.toFixed(0) + " " + L.height.toFixed(0));
    svg.setAttribute("width", L.width.toFixed(0));
    svg.setAttribute("height", L.height.toFixed(0));
    svg.setAttribute("data-kind", board.kind);
    const cells = board.cells || [];
    // an accessible name: what the board is and what stands on it (each cell has its own title)
    const pieces = cells.reduce((n, c) => n + (c.pieces || []).length, 0);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "board: " + board.kind + ", " + cells.length + " cells, " + pieces + " pieces");
    const byId = {};
    cells.forEach(c => { byId[c.id] = c; });
    const edges = el("g", { class: "edges" }, svg);
    (board.edges || []).forEach(([a, b]) => {
      if (!byId[a] || !byId[b]) return;
      const [x1, y1] = L.centre(byId[a]), [x2, y2] = L.centre(byId[b]);
      el("line", { x1: x1, y1: y1, x2: x2, y2: y2, class: "edge" }, edges);
    });
    if (board.kind === "grid") {
      const labels = el("g", { class: "axis" }, svg);
      (board.columns || []).forEach((name, i) => {
        const x = L.margin + i * L.size + L.size / 2;
        text(labels, x, L.margin - 7, name, { "text-anchor": "middle" });
        text(labels, x, L.height - L.margin + 15, name, { "text-anchor": "middle" });
      });
      (board.rows || []).forEach((name, i) => {
        const y = L.margin + i * L.size + L.size / 2 + 4;
        text(labels, L.margin - 6, y, name, { "text-anchor": "end" });
        text(labels, L.width - L.margin + 6, y, name, { "text-anchor": "start" });
      });
    }
    const showLabels = board.kind !== "grid" || !(board.columns || []).length;
    const layer = el("g", { class: "cells" }, svg);
    const labelLayer = el("g", { class: "cell-labels" }, svg); // above every cell: never covered
    cells.forEach(c => {
      const g = el("g", { class: "cell", "data-cell": c.id }, layer);
      const fill = terrainColour(c.terrain) || (c.level !== undefined && c.level !== null ? levelColour(c.level) : "#efe9dc");
      L.outline(g, c, { fill: fill, class: "cell-bg" });
      if (c.controller) L.inner(g, c, { fill: "none", stroke: ownerColour(colours, c.controller), "stroke-width": 3, "stroke-dasharray": "5 3", class: "controller" });
      const [cx, cy] = L.centre(c);
      const s = L.size;
      const tip = [c.label || c.id];
      if (c.terrain) tip.push(c.terrain);
      if (c.level !== undefined && c.level !== null) tip.push("level " + c.level);
      if (c.controller) tip.push("controlled by " + c.controller);
      (c.pieces || []).forEach(p => tip.push(p.label + " (" + (p.kind || "piece") + ", " + (p.owner || "neutral") + ")"));
      (c.markers || []).forEach(m => tip.push("marker: " + m));
      title(g, tip.join("\n"));
      if (c.level !== undefined && c.level !== null) {
        const [lx, ly] = L.badge(c);
        el("rect", { x: lx, y: ly, width: 11, height: 11, rx: 2, fill: levelColour(c.level + 1), class: "level-badge" }, g);
        text(g, lx + 5.5, ly + 9, String(c.level), { class: "level", "text-anchor": "middle" });
      }
      if (showLabels && (c.label || c.id)) {
        const full = String(c.label || c.id), room = Math.max(3, Math.floor(s / 5.2));
        const [tx, ty] = L.label(c);
        text(labelLayer, tx, ty, full.length > room ? full.slice(0, room - 1) + "\u2026" : full, { class: "cell-label", "text-anchor": "middle" });
      }
      const pieces = c.pieces || [];
      if (pieces.length) {
        const n = pieces.length;
        const per = n === 1 ? 1 : n <= 4 ? 2 : 3;
        const rows = Math.ceil(n / per);
        const slot = (s * 0.78) / Math.max(per, rows);
        const r = Math.min(s * 0.3, slot * 0.46);
        pieces.forEach((p, i) => {
          const col = i % per, row = Math.floor(i / per);
          const inRow = Math.min(per, n - row * per);
          const px = cx + (col - (inRow - 1) / 2) * slot;
          const py = cy + (row - (rows - 1) / 2) * slot - (n === 1 ? 1 : 0);
          const fill = ownerColour(colours, p.owner);
          const pg = el("g", { class: "piece", "data-piece": p.id, "data-owner": p.owner || "", "data-kind": p.kind || "" }, g);
          drawShape(pg, shapeOf(p.kind), px, py, r, { fill: fill, stroke: luminance(fill) > 0.8 ? "#555" : "#1d1d1f", "stroke-width": 1.2 });
          if (r >= 7) text(pg, px, py + Math.min(r * 0.42, 5), (p.label || "").slice(0, 3), { class: "piece-label", fill: ink(fill), "font-size": Math.max(7, Math.min(12, r * 0.85)).toFixed(1), "text-anchor": "middle" });
          title(pg, p.label + " (" + (p.kind || "piece") + ", " + (p.owner || "neutral") + ") " + p.id);
        });
      }
      const markers = c.markers || [];
      markers.slice(0, 4).forEach((m, i) => {
        const [mx0, my] = L.marker(c);
        const mx = mx0 - i * 10;
        const mg = el("g", { class: "marker", "data-marker": m }, g);
        drawShape(mg, "diamond", mx, my, 4.5, { fill: markerColour(m), stroke: "#1d1d1f", "stroke-width": 0.8 });
        title(mg, "marker: " + m);
      });
    });
    return L;
  }

  // -- cards -----------------------------------------------------------------------------------
  const CW = 68, CH = 92, GAP = 6;

  function wrap(s, width, maxLines) {
    const words = String(s).split(/\s+/);
    const lines = [];
    let cur = "";
    words.forEach(w => {
      if (!cur) cur = w;
      else if ((cur + " " + w).length <= width) cur += " " + w;
      else { lines.push(cur); cur = w; }
    });
    if (cur) lines.push(cur);
    if (lines.length > maxLines) { lines.length = maxLines; lines[maxLines - 1] = lines[maxLines - 1].slice(0, width - 1) + "\u2026"; }
    return lines.map(l => (l.length > width ? l.slice(0, width - 1) + "\u2026" : l));
  }

  function cardBack(g, x, y, w, hgt) {
    el("rect", { x: x, y: y, width: w, height: hgt, rx: 6, class: "card-back" }, g);
    el("rect", { x: x + 5, y: y + 5, width: w - 10, height: hgt - 10, rx: 4, class: "card-back-inner" }, g);
  }

  function drawCard(g, card, x, y, colours) {
    if (card.possible && !card.name) { drawUnknown(g, card, x, y); return; }
    const faceDown = card.face_up === false;
    const kind = card.name ? "" : faceDown ? " hidden" : " blank";
    const cg = el("g", { class: "card" + (faceDown ? " face-down" : "") + kind, "data-card": card.id || "" }, g);
    const tip = [card.name || (faceDown ? "(hidden card)" : card.id || "(no card)")];
    if (faceDown) tip.push("face down");
    (card.tags || []).forEach(t => tip.push(t));
    // the card's text from the match's pool (only for a card this view may know: Card.card)
    const known = card.card ? cardTexts[card.card] : null;
    if (known) {
      cg.setAttribute("data-pool-card", card.card);
      cg.classList.add("has-text");
      if (known.text) tip.push("", known.text);
    }
    title(cg, tip.join("\n"));
    if (!card.name && faceDown) { // a card this viewer cannot see
      cardBack(cg, x, y, CW, CH);
      text(cg, x + CW / 2, y + CH / 2 + 5, "?", { class: "card-back-mark", "text-anchor": "middle" });
      return;
    }
    if (!card.name) { // a place without a card (an empty slot): its id and tags
      el("rect", { x: x, y: y, width: CW, height: CH, rx: 6, class: "card-blank" }, cg);
      let by = y + CH / 2 - 4;
      [card.id].concat(card.tags || []).filter(Boolean).slice(0, 3).forEach(t => {
        text(cg, x + CW / 2, by, t, { class: "card-blank-text", "text-anchor": "middle" }); by += 11;
      });
      return;
    }
    let tint = named(card.colour) || "#bdb6a8";
    if (luminance(tint) > 0.8) tint = "#b9b09e"; // a white card still needs an edge
    el("rect", { x: x, y: y, width: CW, height: CH, rx: 6, fill: "#fffdf8", stroke: tint, "stroke-width": 2.2, class: "card-face" + (card.face_up === false ? " dashed" : "") }, cg);
    el("rect", { x: x + 2, y: y + 2, width: CW - 4, height: 6, rx: 2, fill: tint }, cg);
    let ty = y + 20;
    wrap(card.name, 11, 3).forEach(line => { text(cg, x + 5, ty, line, { class: "card-name" }); ty += 11; });
    ty += 2;
    (card.tags || []).slice(0, 5).forEach(tag => {
      if (ty > y + CH - 4) return;
      text(cg, x + 5, ty, tag.length > 14 ? tag.slice(0, 13) + "\u2026" : tag, { class: "card-tag" });
      ty += 10;
    });
    if (card.face_up === false) {
      el("rect", { x: x + CW - 22, y: y + CH - 16, width: 19, height: 13, rx: 3, class: "face-down-badge" }, cg);
      text(cg, x + CW - 12.5, y + CH - 6.5, "\u25bc", { class: "face-down-mark", "text-anchor": "middle" });
    }
    void colours;
  }

  // a card whose identity the record leaves unknown: a back marked "?" and how many cards it can
  // still be; hover: their names (title), click: the list in the card panel (viewer.js)
  function drawUnknown(g, card, x, y) {
    const ids = card.possible;
    const cg = el("g", { class: "card unknown", "data-card": card.id || "", "data-possible": ids.join(" ") }, g);
    const names = ids.map(id => (cardTexts[id] ? cardTexts[id].name + " (" + id + ")" : id));
    title(cg, "unknown card: " + (ids.length ? "can still be " + ids.length + "\n" + names.join("\n") : "can be no card of the pool"));
    cardBack(cg, x, y, CW, CH);
    text(cg, x + CW / 2, y + CH / 2, "?", { class: "card-back-mark", "text-anchor": "middle" });
    text(cg, x + CW / 2, y + CH / 2 + 16, ids.length + " possible", { class: "unknown-count", "text-anchor": "middle" });
  }

  function drawZone(zone, colours, maxWidth) {
    const box = h("div", "zone");
    box.dataset.zone = zone.id;
    const label = h("div", "zone-label");
    label.appendChild(h("span", "zone-name", zone.label));
    const cards = zone.cards || [];
    const n = zone.count !== undefined && zone.count !== null ? zone.count : cards.length;
    label.appendChild(h("span", "zone-count", String(n)));
    box.appendChild(label);
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "zone-cards");
    if (!cards.length) {
      if (n > 0) { // a counted pile: a stack of backs
        svg.setAttribute("width", CW + 14); svg.setAttribute("height", CH + 8);
        const g = el("g", { class: "stack" }, svg);
        for (let i = Math.min(n, 3) - 1; i >= 0; i--) cardBack(g, 2 + i * 4, 2 + i * 2, CW - 6, CH - 4);
        text(g, 2 + CW / 2, 2 + CH / 2 + 6, "\u00d7" + n, { class: "stack-count", "text-anchor": "middle" });
        title(g, zone.label + ": " + n + " cards");
      } else {
        box.classList.add("empty");
        box.appendChild(h("span", "zone-empty", "empty"));
        return box;
      }
      box.appendChild(svg);
      return box;
    }
    const per = Math.max(1, Math.floor((maxWidth - 8) / (CW + GAP)));
    const rows = Math.ceil(cards.length / per);
    const w = Math.min(cards.length, per) * (CW + GAP) + 4;
    const hgt = rows * (CH + GAP) + 4;
    svg.setAttribute("width", w); svg.setAttribute("height", hgt);
    svg.setAttribute("viewBox", "0 0 " + w + " " + hgt);
    cards.forEach((c, i) => drawCard(svg, c, 2 + (i % per) * (CW + GAP), 2 + Math.floor(i / per) * (CH + GAP), colours));
    box.appendChild(svg);
    return box;
  }

  function counterChip(c) {
    const chip = h("span", "counter");
    chip.dataset.counter = c.id;
    chip.appendChild(h("span", "counter-label", c.label));
    const v = h("span", "counter-value", String(c.value) + (c.max !== undefined && c.max !== null ? " / " + c.max : ""));
    chip.appendChild(v);
    if (typeof c.value === "number" && c.max) {
      const bar = h("span", "counter-bar");
      const fill = h("span", "counter-fill");
      fill.style.width = Math.max(0, Math.min(100, 100 * c.value / c.max)) + "%";
      bar.appendChild(fill);
      chip.appendChild(bar);
    }
    return chip;
  }

  /** Render a whole scene into `root` (a div): status, players, board, counters, zones, notes. */
  //: the texts of the cards of the position being drawn (Position.cards), by card id
  let cardTexts = {};

  function render(root, scene, opts) {
    opts = opts || {};
    cardTexts = opts.cards || {};
    root.textContent = "";
    const colours = playerColours(scene);
    const width = Math.max(360, root.clientWidth || 800);
    const head = h("div", "scene-head");
    const vw = h("span", "scene-view" + (scene.view ? " player-view" : ""), scene.view ? "view: " + scene.view : "view: judge (everything)");
    vw.dataset.view = scene.view || "";
    head.appendChild(vw);
    head.appendChild(h("div", "scene-status", scene.status));
    if (scene.outcome) head.appendChild(h("div", "scene-outcome", "Result: " + scene.outcome));
    root.appendChild(head);

    const owners = [];
    (scene.players || []).forEach(p => owners.push(p.id));
    (scene.zones || []).concat(scene.counters || []).forEach(x => { if (x.owner && !owners.includes(x.owner)) owners.push(x.owner); });
    const toAct = new Set(scene.to_act || []);

    if (scene.board) {
      const wrapDiv = h("div", "board-wrap");
      const svg = document.createElementNS(SVGNS, "svg");
      svg.setAttribute("class", "board");
      svg.id = "board";
      wrapDiv.appendChild(svg);
      root.appendChild(wrapDiv);
      drawBoard(svg, scene.board, colours, Math.min(width, opts.boardWidth || 720));
    }
    const common = (scene.counters || []).filter(c => !c.owner);
    const commonZones = (scene.zones || []).filter(z => !z.owner);
    if (common.length || commonZones.length || (scene.notes || []).length) {
      const block = h("section", "owner-block table-block");
      block.appendChild(h("h3", "owner-head", "Table"));
      if (common.length) { const cs = h("div", "counters"); common.forEach(c => cs.appendChild(counterChip(c))); block.appendChild(cs); }
      commonZones.forEach(z => block.appendChild(drawZone(z, colours, width - 150)));
      if ((scene.notes || []).length) {
        const ul = h("ul", "notes");
        const pre = scene.notes.some(n => /^\s{2,}|\s{3,}/.test(n));
        scene.notes.forEach(n => ul.appendChild(h("li", pre ? "pre" : "", n)));
        block.appendChild(ul);
      }
      root.appendChild(block);
    }
    const info = {};
    (scene.players || []).forEach(p => { info[p.id] = p; });
    owners.forEach(owner => {
      const p = info[owner] || { id: owner, label: owner };
      const block = h("section", "owner-block player-block");
      block.dataset.owner = owner;
      block.style.borderLeftColor = ownerColour(colours, owner);
      const head2 = h("h3", "owner-head");
      const sw = h("span", "swatch");
      sw.style.background = ownerColour(colours, owner);
      head2.appendChild(sw);
      head2.appendChild(h("span", "owner-name", p.label + (p.label !== p.id ? " (" + p.id + ")" : "")));
      if (p.detail) head2.appendChild(h("span", "owner-detail", p.detail));
      if (toAct.has(owner)) head2.appendChild(h("span", "to-act", "to act"));
      if (scene.view === owner) head2.appendChild(h("span", "you", "this view"));
      block.appendChild(head2);
      const cs = (scene.counters || []).filter(c => c.owner === owner);
      if (cs.length) { const row = h("div", "counters"); cs.forEach(c => row.appendChild(counterChip(c))); block.appendChild(row); }
      (scene.zones || []).filter(z => z.owner === owner).forEach(z => block.appendChild(drawZone(z, colours, width - 150)));
      root.appendChild(block);
    });
    // to_act ids that are not owners (e.g. a seat id): say so in the status line
    const others = [...toAct].filter(x => !owners.includes(x));
    if (others.length) head.appendChild(h("div", "scene-to-act", "to act: " + others.join(", ")));
  }

  window.SceneView = { render: render, drawBoard: drawBoard, named: named, playerColours: playerColours };
})();
