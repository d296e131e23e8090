"use strict";
// arena's report: everything is drawn here from the JSON in #arena-data; each game's frames sit
// compressed (zlib) in one line of #arena-games and are unpacked only when the game is opened.

const D = JSON.parse(document.getElementById("arena-data").textContent);
const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"];
const REASONS_FAILED = new Set(["timeout", "crash", "illegal", "protocol", "memory"]);

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
// A rating that rounds to zero is written 0, not -0.
const num = (x, d = 0) => (x === null || x === undefined ? "–" : Number(x).toFixed(d).replace(/^-(0(\.0+)?)$/, "$1"));
const pts = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1).replace(/\.5$/, "½").replace(/^0½/, "½"));

function el(tag, attrs = {}, ns = null) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// ---------------------------------------------------------------- header
function drawMeta() {
  const params = D.params.map(([k, v]) => `${k}=${v}`).join(", ");
  $("meta").textContent = `${D.game} (${D.summary}) · ${D.format} · ${D.bots.length} bots · ${D.games.length} games` +
    (params ? ` · ${params}` : "") + ` · written ${D.generated} by arena ${D.arena}`;
}

// ---------------------------------------------------------------- standings
function errorBar(s, lo, hi) {
  const W = 160, H = 18, pad = 6;
  const x = (v) => pad + ((Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo || 1)) * (W - 2 * pad);
  const svg = el("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `Elo ${num(s.elo)} ± ${num(s.elo_error)}` }, SVG);
  svg.appendChild(el("line", { x1: x(0), x2: x(0), y1: 0, y2: H, stroke: "#c8ccd0", "stroke-dasharray": "2 2" }, SVG));
  if (s.elo_error !== null) {
    svg.appendChild(el("rect", { x: x(s.elo - s.elo_error), y: 6, width: Math.max(1, x(s.elo + s.elo_error) - x(s.elo - s.elo_error)), height: 6, rx: 3, fill: "#9ec5fe" }, SVG));
  }
  svg.appendChild(el("circle", { cx: x(s.elo), cy: 9, r: 4, fill: s.marked ? "#c62828" : "#1f6feb" }, SVG));
  return svg;
}

function drawStandings() {
  const t = $("standings-table");
  const rows = D.standings;
  let lo = Infinity, hi = -Infinity;
  for (const s of rows) {
    if (s.games === 0) continue;
    const e = s.elo_error === null ? 0 : Math.min(s.elo_error, 1000);
    lo = Math.min(lo, s.elo - e);
    hi = Math.max(hi, s.elo + e);
  }
  if (!isFinite(lo)) { lo = -100; hi = 100; }
  // The table fits 1280 px: the interval's heading wraps over its bars, a long name is cut short
  // (in full on hover). A wider table scrolls alone, its rank and bot columns fixed (report.css).
  // Games of more than two players: the average place where two players have draws and losses.
  const places = rows.some((s) => s.average_place !== undefined);
  // Answer times: absent from folders whose logs predate them.
  const timed = rows.some((s) => s.near_limit !== undefined);
  const counts = places ? `<th title="first place, alone">won</th><th>avg place</th><th title="(N - place) / (N - 1) a game">points</th>` : `<th>won</th><th>drawn</th><th>lost</th><th>score</th>`;
  t.innerHTML = `<thead><tr><th class="rank">rank</th><th class="name bot">bot</th><th>games</th>${counts}
    <th>Elo</th><th>±&nbsp;95%</th><th class="name interval">Elo with its 95% interval <span class="range">(${Math.round(lo)} to ${Math.round(hi)})</span></th><th>Glicko-2</th><th>RD</th>${places ? `<th title="Weng-Lin (OpenSkill): 25 to start">Weng-Lin</th><th>σ</th>` : ""}
    <th title="games lost by timeout">timeouts</th><th title="games lost by a crash">crashes</th><th title="illegal moves and protocol errors">illegal</th>
    ${timed ? `<th title="the mean time from a prompt to the answer, and the slowest, in milliseconds">ms (max)</th><th title="answers that took 80% of their allowance or more, late ones included">near</th>` : ""}</tr></thead>`;
  const body = el("tbody");
  for (const s of rows) {
    const tr = el("tr", { "data-bot": s.bot });
    const mark = s.marked ? ` <span class="mark" title="${s.marked === "perfect" ? "won every game" : "lost every game"}: the rating is held finite by the fit's prior">*</span>` : "";
    const cells = places
      ? `<td>${s.wins}</td><td>${s.average_place === undefined ? "-" : s.average_place.toFixed(2)}</td><td>${s.score.toFixed(2)}</td>`
      : `<td>${s.wins}</td><td>${s.draws}</td><td>${s.losses}</td><td>${pts(s.score)}</td>`;
    tr.innerHTML = `<td class="rank">${s.rank}</td><td class="name bot" title="${esc(s.bot)}">${esc(s.bot)}</td><td>${s.games}</td>${cells}<td class="elo">${num(s.elo)}${mark}</td><td>${num(s.elo_error)}</td><td class="bar"></td><td>${num(s.glicko2)}</td><td>${num(s.glicko2_rd)}</td>${places ? `<td>${s.weng_lin ? s.weng_lin[0].toFixed(1) : "-"}</td><td>${s.weng_lin ? s.weng_lin[1].toFixed(1) : "-"}</td>` : ""}
      <td>${s.timeouts}</td><td>${s.crashes}</td><td>${s.illegal}</td>
      ${timed ? `<td>${s.max_answer_ms == null ? "-" : `${s.mean_answer_ms} (${s.max_answer_ms})`}</td><td>${s.max_answer_ms == null ? "-" : s.near_limit}</td>` : ""}`;
    tr.querySelector("td.bar").appendChild(errorBar(s, lo, hi));
    body.appendChild(tr);
  }
  t.appendChild(body);
  if (rows.some((s) => s.marked)) {
    $("standings-note").textContent = "* won or lost every game: the rating is held finite by the fit's prior, not by the results.";
  }
}

// ---------------------------------------------------------------- crosstable
function scoreColour(frac) {
  // Red for a lost pairing, through pale yellow, to green for a won one.
  return `hsl(${Math.round(120 * frac)}, 65%, ${88 - 10 * Math.abs(frac - 0.5)}%)`;
}

function drawCrosstable() {
  const box = $("crosstable-body");
  if (!D.crosstable) {
    box.innerHTML = `<p class="note">${D.bots.length} bots: too many for a page; crosstable.csv has every pairing.</p>`;
    return;
  }
  const order = D.standings.map((s) => D.bots.indexOf(s.bot));
  // Games of more than two players: a cell counts the games the row finished ahead of the column.
  const many = D.games.some((g) => g[2].length > 2);
  if (many) {
    $("crosstable-note").textContent = "How often the row bot finished ahead of the column bot, out of the games they played together (a tie counts half). Click a cell for those games.";
  }
  let html = `<table><thead><tr><th class="name">bot</th>`;
  order.forEach((b, k) => { html += `<th class="col" title="${esc(D.bots[b])}">${k + 1}. ${esc(D.bots[b])}</th>`; });
  html += `<th>score</th></tr></thead><tbody>`;
  order.forEach((a, k) => {
    html += `<tr><th class="name">${k + 1}. ${esc(D.bots[a])}</th>`;
    let total = 0, games = 0;
    for (const b of order) {
      const c = D.crosstable[a][b];
      if (a === b) { html += `<td class="self"></td>`; continue; }
      if (!c) { html += `<td></td>`; continue; }
      total += c[0]; games += c[1];
      const said = many ? `${esc(D.bots[a])} finished ahead of ${esc(D.bots[b])} in ${pts(c[0])} of the ${c[1]} games they met (a tie counts half)` : `${esc(D.bots[a])} against ${esc(D.bots[b])}: ${pts(c[0])} of ${c[1]}`;
      html += `<td data-a="${a}" data-b="${b}" style="background:${scoreColour(c[0] / c[1])}" title="${said}">${pts(c[0])}/${c[1]}</td>`;
    }
    html += `<td>${pts(total)}/${games}</td></tr>`;
  });
  box.innerHTML = html + `</tbody></table>`;
  box.addEventListener("click", (ev) => {
    const td = ev.target.closest("td[data-a]");
    if (!td) return;
    $("games-filter").value = `${D.bots[td.dataset.a]} vs ${D.bots[td.dataset.b]}`;
    filterGames();
    $("games").scrollIntoView();
  });
}

// ---------------------------------------------------------------- rating progress
function drawProgress() {
  const box = $("progress-chart");
  const P = D.progress;
  if (P.rounds.length === 0) { box.innerHTML = `<p class="note">No rated games yet.</p>`; return; }
  const W = 820, H = 320, L = 50, R = 20, T = 12, B = 30;
  let lo = Infinity, hi = -Infinity;
  P.elo.forEach((series) => series.forEach((v) => { lo = Math.min(lo, v); hi = Math.max(hi, v); }));
  if (hi - lo < 50) { lo -= 25; hi += 25; }
  const n = P.rounds.length;
  const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i / (n - 1)) * (W - L - R));
  const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const svg = el("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Elo by round" }, SVG);
  const step = Math.pow(10, Math.floor(Math.log10((hi - lo) / 4)));
  const tick = [1, 2, 5, 10].map((m) => m * step).find((s) => (hi - lo) / s <= 6);
  for (let v = Math.ceil(lo / tick) * tick; v <= hi; v += tick) {
    svg.appendChild(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: v === 0 ? "#b0b6bc" : "#eceff1" }, SVG));
    const label = el("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end" }, SVG);
    label.textContent = Math.round(v);
    svg.appendChild(label);
  }
  const every = Math.max(1, Math.ceil(n / 10));
  for (let i = 0; i < n; i += every) {
    const label = el("text", { x: x(i), y: H - 10, "text-anchor": "middle" }, SVG);
    label.textContent = P.rounds[i];
    svg.appendChild(label);
  }
  const axis = el("text", { x: L - 6, y: H - 10, "text-anchor": "end" }, SVG);
  axis.textContent = "round";
  svg.appendChild(axis);
  // The leaders in colour, on top; the rest of a large field in grey beneath.
  const ranked = D.standings.map((s) => D.bots.indexOf(s.bot));
  const legend = $("progress-legend");
  for (let k = ranked.length - 1; k >= 0; k--) {
    const b = ranked[k];
    const colour = k < PALETTE.length ? PALETTE[k] : "#c3c8cd";
    const d = P.elo[b].map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join("");
    const path = el("path", { d, fill: "none", stroke: colour, "stroke-width": k < PALETTE.length ? 2 : 1, "data-bot": D.bots[b] }, SVG);
    const title = el("title", {}, SVG);
    title.textContent = `${D.bots[b]}: ${P.elo[b][n - 1]}`;
    path.appendChild(title);
    svg.appendChild(path);
    if (n === 1) svg.appendChild(el("circle", { cx: x(0), cy: y(P.elo[b][0]), r: 3, fill: colour }, SVG));
  }
  ranked.slice(0, PALETTE.length).forEach((b, k) => {
    legend.insertAdjacentHTML("beforeend", `<span><i style="background:${PALETTE[k]}"></i>${esc(D.bots[b])}</span>`);
  });
  if (ranked.length > PALETTE.length) legend.insertAdjacentHTML("beforeend", `<span><i style="background:#c3c8cd"></i>the other ${ranked.length - PALETTE.length}</span>`);
  box.appendChild(svg);
}

// ---------------------------------------------------------------- grades
// A gauntlet's students alone, as the teacher reads them: the references are the yardstick.
function drawGrades() {
  const G = D.grades;
  if (!G) return;
  $("grades").hidden = false;
  $("grades-link").hidden = false;
  let html = `<table><thead><tr><th class="name">student</th>${G.references.map((r) => `<th>vs ${esc(r)}</th>`).join("")}<th>total</th><th>failures</th><th class="name">first failure</th></tr></thead><tbody>`;
  for (const g of G.students) {
    const against = g.against.map(([p, n]) => `<td>${pts(p)}/${n}</td>`).join("");
    const failed = g.failures.reduce((a, b) => a + b, 0);
    const f = g.first;
    const first = f ? `<a href="#game-${f.game}">game ${f.game}</a> (${esc(f.reason)}): ${esc(f.detail)}` : "";
    html += `<tr data-bot="${esc(g.student)}"><td class="name">${esc(g.student)}</td>${against}<td>${pts(g.score)}/${g.games}</td><td>${failed}</td><td class="name">${first}</td></tr>`;
  }
  $("grades-body").innerHTML = html + `</tbody></table>`;
}

// ---------------------------------------------------------------- failures
function drawFailures() {
  const box = $("failures-body");
  const failedGames = D.bots.map(() => []);
  for (const g of D.games) {
    g[2].forEach((b, s) => { if (g[8][s]) failedGames[b].push(g[0]); });
  }
  const bots = D.standings.map((s) => D.bots.indexOf(s.bot)).filter((b) => D.failures[b].some((n) => n > 0));
  const total = D.failures.reduce((acc, f) => acc.map((n, i) => n + f[i]), [0, 0, 0, 0]);
  if (bots.length === 0) { box.innerHTML = `<p class="note">No bot failed: every game was played out.</p>`; return; }
  let html = `<p class="note">Games lost by a failure: ${total[0]} timeouts, ${total[1]} crashes, ${total[2]} illegal moves, ${total[3]} protocol errors.</p>
    <table><thead><tr><th class="name">bot</th><th>timeouts</th><th>crashes</th><th>illegal</th><th>protocol</th><th class="name">games</th></tr></thead><tbody>`;
  for (const b of bots) {
    const f = D.failures[b];
    const links = failedGames[b].slice(0, 8).map((id) => `<a href="#game-${id}">${id}</a>`).join(" ");
    const more = failedGames[b].length > 8 ? ` and ${failedGames[b].length - 8} more` : "";
    html += `<tr data-bot="${esc(D.bots[b])}"><td class="name">${esc(D.bots[b])}</td><td>${f[0]}</td><td>${f[1]}</td><td>${f[2]}</td><td>${f[3]}</td><td class="name">${links}${more}</td></tr>`;
  }
  box.innerHTML = html + `</tbody></table>`;
}

// ---------------------------------------------------------------- games list
// Rows of a grid rather than a table: a table lays out every row to size its columns, which
// takes seconds for 10,000 games, while chunks of rows can skip layout until scrolled to.
const CHUNK = 500;
// A game's players as the list shows them: two facing each other, or more with their places.
function playersCells(g) {
  if (g[2].length === 2) {
    return `<span class="name">${esc(D.bots[g[2][0]])}</span><span>${pts(g[3][0])}–${pts(g[3][1])}</span><span class="name">${esc(D.bots[g[2][1]])}</span>`;
  }
  // Games of more players: one cell over the three of a two-player game's seats and score.
  const who = g[2].map((b, s) => `${esc(D.bots[b])} (${g[9][s]})`).join(" · ");
  return `<span class="name players" title="${who}">${who}</span>`;
}

function drawGames() {
  const t = $("games-table");
  const two = D.games.every((g) => g[2].length === 2);
  const head = two ? `<span class="name">seat 0</span><span>score</span><span class="name">seat 1</span>` : `<span class="name players">players (place), by seat</span>`;
  let html = `<div class="g-row g-head" role="row"><span>game</span><span>round</span>${head}<span class="name">reason</span><span>plies</span><span>ms</span><span class="name">links</span></div>`;
  for (let start = 0; start < D.games.length; start += CHUNK) {
    html += `<div class="g-chunk">`;
    for (const g of D.games.slice(start, start + CHUNK)) {
      const failed = g[8].some((f) => f) ? " failed" : "";
      html += `<div class="g-row${failed}" id="row-${g[0]}" role="row"><span>${g[0]}</span><span>${g[1]}</span>${playersCells(g)}` +
        `<span class="name reason">${esc(g[4])}</span><span>${g[5]}</span><span>${g[6]}</span>` +
        `<span class="name"><a class="view" href="#game-${g[0]}">view</a> <a href="${esc(g[7])}">log</a></span></div>`;
    }
    html += "</div>";
  }
  t.innerHTML = html;
  $("games-count").textContent = D.games.length === 1 ? "1 game" : `${D.games.length} games`;
  $("games-filter").addEventListener("input", filterGames);
}

function filterGames() {
  const q = $("games-filter").value.trim().toLowerCase();
  const pair = q.split(/\s+vs\s+/);
  let shown = 0;
  const rows = $("games-table").querySelectorAll(".g-chunk > .g-row");
  rows.forEach((row, i) => {
    const g = D.games[i];
    const names = g[2].map((b) => D.bots[b].toLowerCase());
    let ok;
    if (!q) ok = true;
    else if (pair.length === 2) ok = pair[0] !== pair[1] && names.includes(pair[0]) && names.includes(pair[1]);
    else ok = names.some((n) => n.includes(q)) || g[4] === q || String(g[0]) === q;
    row.hidden = !ok;
    if (ok) shown++;
  });
  $("games-count").textContent = q ? `${shown} of ${D.games.length} games` : `${D.games.length} games`;
}

// ---------------------------------------------------------------- viewer
let packed = null;
const V = { view: null, frame: 0, viewIndex: 0 };

function packedLine(i) {
  if (packed === null) packed = document.getElementById("arena-games").textContent.split("\n");
  return packed[i];
}

async function unpack(line) {
  const bytes = Uint8Array.from(atob(line), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}

let opening = 0;

async function openGame(id) {
  // Forget the game shown before, so that nothing of it stays under the new title; and a slow
  // unpack must not overwrite a game opened after it.
  const ticket = ++opening;
  V.view = null;
  $("v-controls").hidden = true;
  $("v-board").textContent = "";
  $("v-notes").textContent = "";
  $("v-stderr").textContent = "";
  $("v-said").textContent = "";
  const i = D.games.findIndex((g) => g[0] === id);
  if (i < 0) { $("v-title").textContent = `There is no game ${id} in this report.`; $("v-caption").textContent = ""; return; }
  const g = D.games[i];
  const names = g[2].map((b) => D.bots[b]);
  const who = names.length === 2
    ? `${esc(names[0])} (seat 0) ${pts(g[3][0])}–${pts(g[3][1])} ${esc(names[1])} (seat 1)`
    : names.map((n, s) => `${esc(n)} (seat ${s}, place ${g[9][s]})`).join(", ");
  $("v-title").innerHTML = `Game ${g[0]} · round ${g[1]} · ${who} · ${esc(g[4])} · ${g[5]} plies · <a href="${esc(g[7])}">log</a>`;
  const line = packedLine(i);
  if (!line || line.startsWith("!")) {
    $("v-caption").textContent = line ? `This game cannot be shown: ${line.slice(1)}` : "This game cannot be shown: its log is missing.";
    return;
  }
  let view;
  try {
    view = await unpack(line);
  } catch (e) {
    if (ticket === opening) $("v-caption").textContent = `This game cannot be shown: ${e}`;
    return;
  }
  if (ticket !== opening) return;
  V.view = view; V.viewIndex = 0; V.names = names;
  // An SDK referee's own log, beside arena's (logs/game-N.sdk.json for logs/game-N.jsonl).
  if (view.sdk_log) {
    const href = g[7].replace(/\.jsonl$/, "") + ".sdk.json";
    $("v-title").insertAdjacentHTML("beforeend", ` · <a id="v-sdk-log" href="${esc(href)}">SDK log</a>`);
  }
  // How the game was lost, in the header: the last frame's caption says it too, but only there.
  if (view.failures && view.failures.length) {
    $("v-title").insertAdjacentHTML("beforeend", `<br><span id="v-failures" class="failed"></span>`);
    $("v-failures").textContent = view.failures.join(" · ");
  }
  // Every player's stderr, and a referee program's in the games it played.
  const boxes = $("v-stderr");
  names.forEach((n, s) => {
    boxes.insertAdjacentHTML("beforeend", `<div><h3 id="v-err-title-${s}"></h3><pre id="v-err-${s}"></pre></div>`);
    $(`v-err-title-${s}`).textContent = `stderr of ${n} (seat ${s})`;
    $(`v-err-${s}`).textContent = view.stderr[s] || "(nothing)";
  });
  if (view.referee_stderr !== undefined) {
    boxes.insertAdjacentHTML("beforeend", `<div id="v-err-box-referee"><h3>stderr of the referee program</h3><pre id="v-err-referee"></pre></div>`);
    $("v-err-referee").textContent = view.referee_stderr || "(nothing)";
  }
  const slider = $("v-slider");
  slider.max = view.frames.length - 1;
  $("v-controls").hidden = false;
  const grid = view.frames[0].picture.board;
  const select = $("v-view");
  select.innerHTML = "";
  if (grid.kind === "grid" && grid.views.length > 1) {
    grid.views.forEach((v, k) => select.insertAdjacentHTML("beforeend", `<option value="${k}">${esc(v.label)}</option>`));
    $("v-view-label").hidden = false;
  } else {
    $("v-view-label").hidden = true;
  }
  show(0);
}

function show(k) {
  const frames = V.view.frames;
  V.frame = Math.max(0, Math.min(frames.length - 1, k));
  const f = frames[V.frame];
  $("v-slider").value = V.frame;
  $("v-ply").textContent = `${V.frame} / ${frames.length - 1} · ${f.ms} ms`;
  $("v-first").disabled = $("v-prev").disabled = V.frame === 0;
  $("v-next").disabled = $("v-last").disabled = V.frame === frames.length - 1;
  $("v-caption").textContent = f.caption;
  const notes = $("v-notes");
  // Notes known only once the game was over (an SDK referee's summaries) join the frame's own.
  const late = (V.view.late_notes && V.view.late_notes[V.frame]) || [];
  notes.innerHTML = f.picture.notes.concat(late).map((n) => `<li>${esc(n)}</li>`).join("");
  // What each bot wrote to stderr by this frame since the one before, as CodinGame shows it.
  const said = $("v-said");
  said.textContent = "";
  const words = (V.view.frame_stderr && V.view.frame_stderr[V.frame]) || {};
  for (const [s, text] of Object.entries(words)) {
    const h = el("h4", {});
    h.textContent = `stderr of ${V.names[s]} (seat ${s}) at this move`;
    const pre = el("pre", { class: "said", "data-seat": s });
    pre.textContent = text;
    said.append(h, pre);
  }
  const board = $("v-board");
  board.textContent = "";
  const b = f.picture.board;
  if (b.kind === "grid") board.appendChild(drawGrid(b, Math.min(V.viewIndex, b.views.length - 1)));
  else board.appendChild(drawTable(b, frames, V.frame));
}

function drawTable(b, frames, upto) {
  const t = el("table", { class: "rounds" });
  let html = `<thead><tr>${b.columns.map((c) => `<th>${esc(c)}</th>`).join("")}</tr></thead><tbody>`;
  let rows = 0;
  for (let k = 0; k <= upto; k++) {
    const row = frames[k].picture.board.row;
    if (!row) continue;
    rows++;
    // A cell of several lines (an SDK referee's input) reads as text, from the left.
    html += `<tr${k === upto ? ` class="current"` : ""}>${row.map((c) => `<td${c.includes("\n") ? ` class="lines"` : ""}>${esc(c)}</td>`).join("")}</tr>`;
  }
  t.innerHTML = html + "</tbody>";
  t.dataset.rows = rows;
  return t;
}

const GROUND = { ".": "#eee4cf", "#": "#b58863", "*": "#e9c46a" };
const GROUND_PLAIN = { ".": "#f0ece2", "#": "#b58863", "*": "#e9c46a" };

function drawGrid(g, viewIndex) {
  const cells = Array.from(g.views[viewIndex].cells);
  const ground = Array.from(g.ground);
  const draughts = ground.includes("#");
  const colours = draughts ? GROUND : GROUND_PLAIN;
  const pieces = new Map(g.pieces.map((p) => [p.key, p]));
  // A side's own view must not give away the other side's hidden moves.
  const last = new Set(viewIndex === 0 ? g.last : []);
  const hex = g.shape === "hex";
  const size = Math.max(18, Math.min(48, Math.floor(600 / Math.max(g.rows, g.cols))));
  const margin = (g.col_labels.length || g.row_labels.length) ? size * 0.8 : 4;
  // Centres of the cells: squares in rows; hexagons in rows slanted by half a cell per row.
  const hexW = size, hexR = size / Math.sqrt(3), hexH = 1.5 * hexR;
  let minX = Infinity, maxX = -Infinity;
  const centre = (r, c) => hex ? [(c - r / 2) * hexW, r * hexH] : [c * size, r * size];
  for (let r = 0; r < g.rows; r++) for (let c = 0; c < g.cols; c++) {
    if (ground[r * g.cols + c] === " ") continue;
    const [cx] = centre(r, c);
    minX = Math.min(minX, cx); maxX = Math.max(maxX, cx);
  }
  if (!isFinite(minX)) { minX = 0; maxX = 0; }
  const width = maxX - minX + size + 2 * margin;
  const height = (hex ? (g.rows - 1) * hexH + 2 * hexR : g.rows * size) + 2 * margin;
  const ox = margin - minX + size / 2, oy = margin + (hex ? hexR : size / 2);
  const svg = el("svg", { width: Math.round(width), height: Math.round(height), viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`, class: "board", "data-cells": cells.join(""), "data-view": g.views[viewIndex].label }, SVG);
  const hexPoints = (x, y) => [0, 1, 2, 3, 4, 5].map((k) => {
    const a = Math.PI / 180 * (60 * k - 90);
    return `${(x + hexR * Math.cos(a)).toFixed(1)},${(y + hexR * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
  for (let r = 0; r < g.rows; r++) {
    for (let c = 0; c < g.cols; c++) {
      const i = r * g.cols + c;
      const gr = ground[i];
      if (gr === " ") continue;
      let [x, y] = centre(r, c);
      x += ox; y += oy;
      const fill = colours[gr] || colours["."];
      const stroke = last.has(i) ? "#e63946" : "#8a8f94";
      const sw = last.has(i) ? 3 : 0.6;
      const shape = hex
        ? el("polygon", { points: hexPoints(x, y), fill, stroke, "stroke-width": sw }, SVG)
        : el("rect", { x: x - size / 2, y: y - size / 2, width: size, height: size, fill, stroke, "stroke-width": sw }, SVG);
      shape.setAttribute("data-cell", i);
      svg.appendChild(shape);
      if (gr === "*" && !hex) {
        const star = el("text", { x, y: y + size * 0.18, "text-anchor": "middle", "font-size": size * 0.5, fill: "#b8860b", opacity: 0.45 }, SVG);
        star.textContent = "✦";
        svg.appendChild(star);
      }
      const key = cells[i];
      const p = pieces.get(key);
      if (!p) continue;
      const disc = el("circle", { cx: x, cy: y, r: size * 0.38, fill: p.fill, stroke: "#333", "stroke-width": 1, "data-piece": key }, SVG);
      const title = el("title", {}, SVG);
      title.textContent = p.name;
      disc.appendChild(title);
      svg.appendChild(disc);
      if (p.label) {
        const t = el("text", { x, y: y + size * 0.14, "text-anchor": "middle", "font-size": size * 0.4, "font-weight": 700, fill: p.ink, "pointer-events": "none" }, SVG);
        t.textContent = p.label;
        svg.appendChild(t);
      }
    }
  }
  g.col_labels.forEach((label, c) => {
    const [x] = centre(0, c);
    const t = el("text", { x: x + ox, y: margin * 0.7, "text-anchor": "middle", "font-size": size * 0.35, fill: "#555" }, SVG);
    t.textContent = label;
    svg.appendChild(t);
  });
  g.row_labels.forEach((label, r) => {
    const y = centre(r, 0)[1];
    const first = hex ? Array.from({ length: g.cols }, (_, c) => c).find((c) => ground[r * g.cols + c] !== " ") ?? 0 : 0;
    const lx = hex ? centre(r, first)[0] + ox - size * 0.8 : margin * 0.5;
    const t = el("text", { x: lx, y: y + oy + size * 0.12, "text-anchor": "middle", "font-size": size * 0.35, fill: "#555" }, SVG);
    t.textContent = label;
    svg.appendChild(t);
  });
  return svg;
}

function route() {
  const m = location.hash.match(/^#game-(\d+)$/);
  if (!m) return;
  openGame(Number(m[1])).then(() => $("viewer").scrollIntoView());
}

function wireViewer() {
  $("v-first").addEventListener("click", () => show(0));
  $("v-prev").addEventListener("click", () => show(V.frame - 1));
  $("v-next").addEventListener("click", () => show(V.frame + 1));
  $("v-last").addEventListener("click", () => show(Infinity));
  $("v-slider").addEventListener("input", (e) => show(Number(e.target.value)));
  $("v-view").addEventListener("change", (e) => { V.viewIndex = Number(e.target.value); show(V.frame); });
  document.addEventListener("keydown", (e) => {
    if (!V.view || e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = (document.activeElement && document.activeElement.tagName) || "";
    if (tag === "INPUT" && document.activeElement.type !== "range" || tag === "SELECT" || tag === "TEXTAREA") return;
    const to = { ArrowLeft: V.frame - 1, ArrowRight: V.frame + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  });
  window.addEventListener("hashchange", route);
}

drawMeta();
drawStandings();
drawGrades();
drawCrosstable();
drawProgress();
drawFailures();
drawGames();
wireViewer();
route();
document.body.dataset.ready = "true";
