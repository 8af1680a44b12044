// The replay viewer: step through a finished (or imported) game from any seat's view.
import { t, render as renderMsg, currentLang } from "./i18n.js";
import { $, esc, setHTML, setItemsHTML, setText, scrollToEnd, mountHeader, api, gameIdFromPath, toast, getSeat } from "./common.js";
import { renderBoard, renderPlayer, renderLog, renderScoring, renderFinal, statusLine, names, renderLegend, lastMoveLine } from "./board.js";

const gameId = gameIdFromPath("replay");
const R = { n: 0, total: 0, seat: 0, data: null, epochs: [], game: null, playing: null, cache: new Map(), busy: false, speed: 600 };
const SPEEDS = [1500, 600, 250];  // milliseconds a decision: slow, normal, fast
const mine = getSeat(gameId);  // this browser's seat at this game, if it played it
const A = { reply: null, poll: null, error: null };  // the game's analysis (see loadAnalysis)
window.__analysis = A;

window.__replay = R;

function edition() { return (R.game && R.game.options && R.game.options.edition) || "original"; }

let asked = 0;  // the newest position asked for: an older answer that comes later is not shown

async function load(n, seat = R.seat) {
  n = Math.max(0, Math.min(n, R.total || n));
  const key = `${n}|${seat}`;
  const mine = ++asked;
  let data = R.cache.get(key);
  if (!data) {
    R.busy = true;
    try {
      data = await api("GET", `/api/games/${encodeURIComponent(gameId)}/replay?n=${n}&seat=${seat}`);
    } catch (e) {
      R.busy = false;
      if (mine !== asked) return;
      $("#status").textContent = e.status === 404 ? t("table.notFound") : `${t("rp.notReady")} (${e.message})`;
      stop();
      return;
    }
    R.busy = false;
    R.cache.set(key, data);
  }
  // A step still on its way when End (or Home, a jump) was pressed must not move the replay back.
  if (mine !== asked) return;
  R.data = data;
  R.n = data.n;
  R.total = data.total;
  R.seat = seat;
  R.epochs = data.epochs || R.epochs;
  render();
}

function render() {
  const d = R.data;
  const range = $("#rp-range");
  range.max = String(R.total);
  range.value = String(R.n);
  $("#rp-pos").textContent = t("rp.decision", { n: R.n, m: R.total });
  $("#rp-play").textContent = R.playing ? `❚❚ ${t("rp.pause")}` : `▶ ${t("rp.play")}`;
  // Rated or casual, as the table was made (an imported record is casual: ra.web.rating_policy).
  const kind = R.game && R.game.options ? ` · ${t(R.game.options.casual ? "lobby.casual" : "lobby.rated")}` : "";
  $("#rp-id").textContent = `#${gameId}${kind}`;
  $("#rp-download").href = `/api/games/${encodeURIComponent(gameId)}/record`;
  $("#rp-download").setAttribute("download", `ra-${gameId}.json`);
  if (!d) return;
  const v = d.view;
  const ns = names(v);
  const sel = $("#rp-seat");
  setHTML(sel, ns.map((nm, i) => `<option value="${i}"${i === R.seat ? " selected" : ""}>${esc(nm)}</option>`).join(""));
  sel.value = String(R.seat);  // the seat shown (a pick whose answer a later step overtook is not)
  setHTML($("#rp-epochs"), R.epochs.map(([ep, first]) => `<button type="button" class="btn small epoch-jump" data-n="${first}">${esc(t("rp.epoch", { n: ep }))}</button>`).join(""));
  setText($("#status"), statusLine(v, null, edition()));
  setText($("#last-event"), lastMoveLine(d.events, ns));
  setHTML($("#board-area"), renderBoard(v, { edition: edition() }));
  const n = v.players.length;
  $("#players").className = `players n${n}`;
  // Each part written only where it changed: a step redraws what the decision moved.
  setItemsHTML($("#players"), v.players.map((_, i) => renderPlayer(v, i, { me: R.seat, you: !!mine && mine.seat === R.seat, edition: edition(), kind: R.game && R.game.seats[i] ? R.game.seats[i].kind : "human", account: Boolean(R.game && R.game.seats[i] && R.game.seats[i].account) })));
  setHTML($("#tile-legend"), renderLegend());
  const log = $("#log");
  if (setItemsHTML(log, renderLog(d.events, ns))) scrollToEnd(log);
  setHTML($("#scoring"), renderScoring(d.events, v));
  const fin = $("#final-area");
  markCurrentMistake();
  if (v.phase === "over") { fin.hidden = false; fin.innerHTML = `<div class="card final-card">${renderFinal(v, d.events, null, R.game)}</div>`; }
  else fin.hidden = true;
}

// ---- analysis: asked for once per game, judged by the server's bots, stored with the game ----

const analysisPath = () => `/api/games/${encodeURIComponent(gameId)}/analysis?lang=${currentLang()}`;

async function loadAnalysis(method = "GET") {
  clearTimeout(A.poll);
  try {
    A.reply = await api(method, analysisPath());
    A.error = null;
  } catch (e) {
    A.error = e.code === "busy" ? t("analysis.web.busy") : e.status === 409 ? null : t("analysis.web.failed");
  }
  renderAnalysis();
  if (A.reply && A.reply.status === "running") A.poll = setTimeout(() => loadAnalysis(), 1000);
}

function renderAnalysis() {
  const body = $("#analysis-body");
  const a = A.reply;
  const err = A.error ? `<p class="bad-text" role="alert">${esc(A.error)}</p>` : "";
  if (!a || a.status === "none") {
    body.innerHTML = `<p class="muted">${esc(t("analysis.web.about"))}</p>${err}` +
      `<button type="button" class="btn primary" id="analyse-btn">${esc(t("analysis.web.start"))}</button>`;
    $("#analyse-btn").addEventListener("click", () => loadAnalysis("POST"));
    return;
  }
  if (a.status === "running") {
    body.innerHTML = `<p>${esc(t("analysis.web.running", { done: a.done, n: a.total }))}</p>` +
      `<progress max="${a.total}" value="${a.done}"></progress>${err}`;
    return;
  }
  const ns = a.players.map((p) => p.name);
  const rows = a.players.map((p) => {
    const acc = p.accuracy === null ? "—" : `${Math.round(100 * p.accuracy)}%`;
    const head = `<p class="accuracy-row"><strong>${esc(t("analysis.accuracy", { name: p.name, accuracy: acc, n: p.judged }))}</strong></p>`;
    if (!p.mistakes.length) return `<div>${head}<p class="muted">${esc(t("analysis.web.clean", { name: p.name }))}</p></div>`;
    // "Decision 160" (the 160th, index 159) goes to the position once it is made: the replay says
    // "Decision 160 of 216" there, its log ends with it, and one step back is the position before.
    const items = p.mistakes.map((m) => `<li><button type="button" class="linkish mistake-jump" data-n="${m.decision + 1}">` +
      esc(t("analysis.web.mistake", { number: m.decision + 1, epoch: m.epoch, label: t(`analysis.label.${m.label}`) })) +
      `</button> <span class="why">${esc(m.why ? renderMsg(m.why, ns) : "")}</span></li>`).join("");
    return `<div>${head}<ul class="mistakes">${items}</ul></div>`;
  }).join("");
  body.innerHTML = `<div class="analysis-chart">${a.chart}</div>` +
    `<p class="chart-point" id="chart-point" role="status" aria-live="polite"></p>` +
    `<p class="muted small-print">${esc(t("analysis.web.help"))}</p>` +
    `<div class="analysis-players">${rows}</div>`;
  const svg = $("svg.win-chart", body);
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  svg.addEventListener("click", chartClick);
  wireChartPoints(svg);
  body.querySelectorAll(".mistake-jump").forEach((b) => b.addEventListener("click", () => { stop(); load(Number(b.dataset.n)); }));
  markCurrentMistake();
}

// A costly decision's circle (drawn once it is made, at index + 1 decisions) goes to that
// position, as its link in the list does; elsewhere, the nearest decision.
function chartClick(e) {
  stop();
  const circle = e.target.closest("circle.costly");
  if (circle) { load(Number(circle.dataset.decision) + 1); return; }
  const svg = e.currentTarget;
  const plot = $("rect", svg);
  const box = plot.getBoundingClientRect();
  const share = Math.max(0, Math.min(1, (e.clientX - box.left) / box.width));
  load(Math.round(share * R.total));
}

// The chart's chances "given who is playing" (dashed) carry what moved each point (a tile, a
// bid, the scoring: ra.analysis.game.point_reasons). Hovering the chart names the nearest point;
// focusing it names the replay's position, which the arrow keys move.
function wireChartPoints(svg) {
  const tip = $("#chart-point");
  if (!svg.querySelector("polyline.given")) { tip.hidden = true; return; }
  svg.tabIndex = 0;
  svg.setAttribute("aria-describedby", "chart-point");
  svg.addEventListener("mousemove", (e) => { tip.textContent = chartPoint(svg, decisionAt(svg, e.clientX)); });
  svg.addEventListener("mouseleave", () => { tip.textContent = chartPoint(svg, R.n); });
  svg.addEventListener("focus", () => { tip.textContent = chartPoint(svg, R.n); });
  tip.textContent = chartPoint(svg, R.n);
}

function decisionAt(svg, clientX) {
  const box = $("rect", svg).getBoundingClientRect();
  return Math.round(Math.max(0, Math.min(1, (clientX - box.left) / box.width)) * R.total);
}

// "After decision 34 (a bid), given who is playing: Ann 42% · Bob 31%" for the point at or
// before decision n (the curve has one a decision).
function chartPoint(svg, n) {
  const lines = [...svg.querySelectorAll("polyline.given")];
  const steps = lines[0].dataset.decisions.split(",").map(Number);
  const reasons = lines[0].dataset.reasons.split(",");
  let k = steps.length - 1;
  while (k > 0 && steps[k] > n) k--;
  const chances = lines.map((l) => {
    const who = svg.querySelector(`polyline.player[data-seat="${l.dataset.seat}"]`);
    return `${who ? who.dataset.name : ""} ${Math.round(100 * Number(l.dataset.values.split(",")[k]))}%`;
  }).join(" · ");
  if (steps[k] === 0) return t("analysis.web.pointStart", { chances });
  return t("analysis.web.point", { number: steps[k], reason: t(`analysis.web.moved.${reasons[k]}`), chances });
}

function markCurrentMistake() {
  const svg = document.querySelector("#analysis-body svg.win-chart");
  const tip = document.querySelector("#chart-point");
  if (svg && tip && !tip.hidden) tip.textContent = chartPoint(svg, R.n);
  document.querySelectorAll(".mistake-jump").forEach((b) => b.classList.toggle("current", Number(b.dataset.n) === R.n));
  document.querySelectorAll("#analysis-body circle.costly").forEach((c) => c.classList.toggle("current", Number(c.dataset.decision) + 1 === R.n));
}

function play() {
  if (R.n >= R.total) load(0);  // from the start again
  R.playing = setInterval(() => { if (R.n >= R.total) stop(); else step(1); }, R.speed);
  render();
}

function stop() { if (R.playing) { clearInterval(R.playing); R.playing = null; render(); } }
function step(k) { if (!R.busy) load(R.n + k); }

async function start() {
  mountHeader(() => { render(); if (A.reply && A.reply.status === "done") loadAnalysis(); else renderAnalysis(); });
  if (!gameId) { $("#status").textContent = t("table.notFound"); return; }
  try { R.game = await api("GET", `/api/games/${encodeURIComponent(gameId)}`); } catch (e) { toast(e.message, "bad"); }
  $("#rp-first").addEventListener("click", () => { stop(); load(0); });
  $("#rp-back").addEventListener("click", () => { stop(); step(-1); });
  $("#rp-step").addEventListener("click", () => { stop(); step(1); });
  $("#rp-last").addEventListener("click", () => { stop(); load(R.total); });
  $("#rp-play").addEventListener("click", () => { if (R.playing) stop(); else play(); });
  const speed = $("#rp-speed");
  speed.innerHTML = SPEEDS.map((ms, i) => `<option value="${ms}"${ms === R.speed ? " selected" : ""} data-i18n="rp.speed${i}">${esc(t(`rp.speed${i}`))}</option>`).join("");
  speed.addEventListener("change", () => {
    R.speed = Number(speed.value);
    if (R.playing) { clearInterval(R.playing); R.playing = null; play(); }
  });
  $("#rp-range").addEventListener("change", (e) => { stop(); load(Number(e.target.value)); });
  $("#rp-seat").addEventListener("change", (e) => load(R.n, Number(e.target.value)));
  $("#rp-epochs").addEventListener("click", (e) => {
    const b = e.target.closest(".epoch-jump");
    if (b) { stop(); load(Number(b.dataset.n)); }
  });
  document.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || e.ctrlKey || e.metaKey || e.altKey) return;
    let done = true;
    if (e.key === "ArrowRight") { stop(); step(1); }
    else if (e.key === "ArrowLeft") { stop(); step(-1); }
    else if (e.key === "Home") { stop(); load(0); }
    else if (e.key === "End") { stop(); load(R.total); }
    else if (/^[1-3]$/.test(e.key)) {
      const ep = R.epochs.find(([x]) => x === Number(e.key));
      if (ep) { stop(); load(ep[1]); }
    } else done = false;
    if (done) e.preventDefault();  // the keys move the replay, not the page
  });
  document.title = `${t("rp.title")} — ${t("app.title")}`;
  await load(0);
  await loadAnalysis(new URLSearchParams(location.search).get("analyse") === "1" ? "POST" : "GET");
}

start();
