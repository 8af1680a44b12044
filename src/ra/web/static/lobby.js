// The lobby: create a game, invite friends, join, watch, rejoin.
import { t, playerName, fmtDecimal } from "./i18n.js";
import { tileSVG } from "./tiles.js";
import { notifyControl, notifyTurn, wireNotify } from "./notify.js";
import { mountChat, onChat, onReported, renderChat } from "./chat.js";
import {
  $, esc, mountHeader, api, allSeats, saveSeat, forgetSeat, savedName, saveName, absLink, toast, toastUntilTyped, copyText, fmtDate,
} from "./common.js";

const seats = [
  { kind: "human" },
  { kind: "bot", level: "hard" },
  { kind: "bot", level: "hard" },
];
let lists = { open: [], running: [], finished: [] };
let yours = [];
let created = null;

// The levels a seat offers: the quick game's list (index.html), so the page names them once.
const levelIds = () => [...$("#quick-level").options].map((o) => o.value);

function renderSeats() {
  const box = $("#seat-rows");
  let firstHuman = seats.findIndex((s) => s.kind === "human");
  box.innerHTML = seats.map((s, i) => {
    const you = i === firstHuman ? ` <span class="badge you">${esc(t("lobby.you"))}</span>` : "";
    const levels = levelIds().map((l) => `<option value="${l}"${s.level === l ? " selected" : ""}>${esc(t("lobby.level." + l))}</option>`).join("");
    return `<div class="seat-row" data-i="${i}"><span class="seat-n"><span class="seat-long">${esc(t("lobby.seat", { n: i + 1 }))}</span><span class="seat-short">${esc(t("lobby.seatShort", { n: i + 1 }))}</span>${you}</span>` +
      `<span class="seg" role="radiogroup" aria-label="${esc(t("lobby.seat", { n: i + 1 }))}">` +
      `<input type="radio" name="kind${i}" id="k${i}h" value="human"${s.kind === "human" ? " checked" : ""}><label for="k${i}h">${esc(t("lobby.human"))}</label>` +
      `<input type="radio" name="kind${i}" id="k${i}b" value="bot"${s.kind === "bot" ? " checked" : ""}><label for="k${i}b"><span class="bot-ic" aria-hidden="true">⚙ </span>${esc(t("lobby.bot"))}</label></span>` +
      (s.kind === "bot" ? `<select class="level" aria-label="${esc(t("lobby.level"))}">${levels}</select>` : "") +
      // Your own seat has no Remove: a table without you is chosen by making your seat a bot.
      (seats.length > 2 && i !== firstHuman ? `<button type="button" class="btn small remove" aria-label="${esc(t("lobby.removeSeat"))} ${i + 1}">✕<span class="rm-label"> ${esc(t("lobby.removeSeat"))}</span></button>` : "") +
      `</div>`;
  }).join("");
  box.querySelectorAll(".seat-row").forEach((row) => {
    const i = Number(row.dataset.i);
    row.querySelectorAll("input[type=radio]").forEach((r) => r.addEventListener("change", () => {
      seats[i] = r.value === "bot" ? { kind: "bot", level: seats[i].level || "hard" } : { kind: "human" };
      renderSeats();
    }));
    const lv = row.querySelector(".level");
    if (lv) lv.addEventListener("change", () => { seats[i].level = lv.value; });
    const rm = row.querySelector(".remove");
    if (rm) rm.addEventListener("click", () => { seats.splice(i, 1); renderSeats(); });
  });
  // Hints default to on with one human at the table, off with several (they agree on it here).
  const hints = $("#hints");
  if (!hints.dataset.touched) hints.checked = seats.filter((s) => s.kind === "human").length <= 1;
  // Rated or casual (ra.web.rating_policy.table_choice): a rated table offers no hints.
  if (!$("#rated").dataset.touched) $("#rated").checked = !hints.checked;
  const botsOnly = firstHuman < 0;
  $("#bots-only").hidden = !botsOnly;
  $("#create-btn").textContent = t(botsOnly ? "lobby.createWatch" : "lobby.create");
  const add = $("#add-seat");
  add.textContent = `+ ${t("lobby.addSeat")}`;
  add.disabled = seats.length >= 5;
  syncVariant();
}

function syncVariant() {
  const v = $("#variant");
  const long = v.querySelector('option[value="long-2p"]');
  long.disabled = seats.length !== 2;
  if (seats.length !== 2 && v.value === "long-2p") v.value = "standard";
  $("#suns-label").hidden = v.value !== "long-2p";
}

async function create(e) {
  e.preventDefault();
  const err = $("#form-error");
  err.textContent = "";
  const name = $("#name").value.trim();
  const humans = seats.filter((s) => s.kind === "human").length;
  if (seats.length < 2 || seats.length > 5) { err.textContent = t("lobby.tooManySeats"); return; }
  if (humans && !name) { err.textContent = t("lobby.needName"); $("#name").focus(); return; }
  if (name) saveName(name);
  const variant = $("#variant").value;
  const body = {
    seats: seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level || "hard" } : { kind: "human" })),
    variant,
    suns_per_player: variant === "long-2p" ? Number($("#suns").value) : null,
    hidden_scores: $("#hidden-scores").checked,
    disaster_timing: $("#disaster-timing").value,
    hints: $("#hints").checked,
    rated: $("#rated").checked,
    edition: $("#edition").value,
    bot_delay: Number($("#pace").value),
    ...clockOptions($("#clock").value),
    on_timeout: $("#on-timeout").value,
    name: name || null,
    join: humans > 0,
  };
  const btn = $("#create-btn");
  btn.disabled = true;
  try {
    const r = await api("POST", "/api/games", body);
    const id = r.game.id;
    if (r.token !== undefined && r.token !== null) await saveSeat(id, r.seat, r.token, name);
    created = { id, humans };
    if (humans <= 1) { location.href = `/g/${encodeURIComponent(id)}`; return; }
    renderCreated();
    // The invite link is the answer to "Create game": bring it into view, selected to copy.
    const share = $("#share-link");
    $("#created").scrollIntoView({ block: "center" });
    share.focus({ preventScroll: true });
    share.select();
    loadLists();
  } catch (ex) {
    err.textContent = ex.message;
  } finally {
    btn.disabled = false;
  }
}

function renderCreated() {
  const box = $("#created");
  if (!created) { box.hidden = true; return; }
  const link = absLink(`/g/${created.id}`);
  box.hidden = false;
  box.innerHTML = `<p><strong>${esc(t("lobby.created"))}</strong></p>` +
    `<div class="share"><input class="share-input" id="share-link" readonly value="${esc(link)}" aria-label="${esc(t("lobby.share"))}">` +
    `<button type="button" class="btn" id="copy-btn">${esc(t("lobby.copy"))}</button></div>` +
    `<a class="btn primary" href="/g/${encodeURIComponent(created.id)}">${esc(t("lobby.goTable"))} →</a>`;
  $("#copy-btn").addEventListener("click", async () => {
    if (await copyText(link)) { toast(t("lobby.copied"), "ok"); $("#copy-btn").textContent = `✓ ${t("lobby.copied")}`; }
  });
}

function describe(g) {
  const o = g.options || {};
  const ed = o.edition && o.edition !== "original" ? ` · ${t("lobby.edition." + o.edition)}` : "";
  const v = o.variant === "long-2p" ? ` · ${t("lobby.variant.long")} (${o.suns_per_player})` : "";
  const hid = o.hidden_scores ? ` · ${t("lobby.hidden")}` : "";
  const hints = o.hints ? ` · ${t("lobby.hints")}` : "";
  const rated = ` · ${t(o.casual ? "lobby.casual" : "lobby.rated")}`;
  const dis = o.disaster_timing === "2008" ? ` · ${t("lobby.disasters.short")}` : "";
  const known = `lobby.clock.${o.move_seconds}`;
  let clock = o.move_seconds ? ` · ◷ ${t(known) !== known ? t(known) : t("lobby.clockSeconds", { n: o.move_seconds })}` : "";
  if (o.game_seconds) clock = ` · ◷ ${t("lobby.clockGame", { m: Math.round(o.game_seconds / 60), s: o.increment || 0 })}`;
  if (clock && o.on_timeout === "forfeit") clock += ` (${t("lobby.timeout.forfeit.short")})`;
  if (clock && o.on_timeout === "second") clock += ` (${t("lobby.timeout.second.short")})`;
  return `${t("lobby.players", { n: o.players || g.seats.length })}${v}${clock}${rated}${dis}${hid}${hints}${ed}`;
}

// The clock select: "" (none), seconds a move ("60"), or a game clock ("g5+3": minutes + increment).
function clockOptions(value) {
  const game = /^g(\d+)\+(\d+)$/.exec(value);
  if (game) return { game_seconds: 60 * Number(game[1]), increment: Number(game[2]) };
  return { move_seconds: value ? Number(value) : null };
}

// The seats as HTML: an account's name links to its profile (a guest's name is only text).
function seatNames(g) {
  // A provisional rating (fewer than 5 rated games: ra.web.rating_policy) shows with "?".
  const rated = (s) => (s.rating !== null && s.rating !== undefined ? ` (${fmtRating(s.rating)}${s.provisional ? "?" : ""})` : "");
  const person = (s) => (s.account ? `<a class="profile-link" href="/u/${encodeURIComponent(s.name)}">${esc(s.name)}</a>` : esc(playerName(s.name)));
  return g.seats.map((s) => (s.kind === "bot" ? esc(`⚙ ${playerName(s.name) || t("lobby.bot")}${rated(s)}`) : s.name ? `${person(s)}${esc(rated(s))}` : esc(s.taken ? "?" : `(${t("table.free")})`))).join(", ");
}

const fmtRating = fmtDecimal;

const myTurn = (g, mine) => Boolean(mine) && g.status === "running" && g.to_move === Number(mine.seat);
let turnsSeen = null; // the games at your turn the page last showed (none notified on loading)

function notifyNewTurns(games, mine) {
  const now = new Set(games.filter((g) => myTurn(g, mine[g.id])).map((g) => g.id));
  if (turnsSeen !== null) {
    for (const id of now) if (!turnsSeen.has(id)) notifyTurn(t("notify.atTable", { id }), `/g/${id}`);
  }
  turnsSeen = now;
}

function item(g, mine) {
  const id = encodeURIComponent(g.id);
  const free = g.seats.filter((s) => s.kind === "human" && !s.taken).length;
  let acts = "";
  if (mine && g.status !== "finished") acts += `<a class="btn small primary" href="/g/${id}">↩ ${esc(t("lobby.rejoin"))}</a>`;
  if (!mine && g.status === "open" && free) {
    acts += `<button type="button" class="btn small primary join-btn" data-id="${esc(g.id)}">${esc(t("lobby.join"))}</button>`;
  }
  if (g.status !== "finished") acts += `<a class="btn small" href="/g/${id}">${esc(t("lobby.spectate"))}</a>`;
  else acts += `<a class="btn small" href="/g/${id}">${esc(t("fin.title"))}</a><a class="btn small" href="/replay/${id}">▶ ${esc(t("lobby.replay"))}</a>`;
  if (mine) acts += `<button type="button" class="btn small forget-btn" data-id="${esc(g.id)}">${esc(t("lobby.forget"))}</button>`;
  let meta = `${describe(g)} · ${fmtDate(g.created)}`;
  if (g.status === "open") meta += ` · ${t("lobby.freeSeats", { n: free })}`;
  if (g.status === "running") meta += ` · ${t("table.epoch", { n: g.epoch })} · ${t("lobby.decisions", { n: g.decisions })}`;
  if (g.spectators > 0) meta += ` · ${t("lobby.watching", { n: g.spectators })}`;
  if (g.status === "finished" && g.winner !== null && g.winner !== undefined) meta += ` · ${t("lobby.winner", { name: g.seats[g.winner] ? playerName(g.seats[g.winner].name) : "?" })}`;
  if (mine) meta += ` · ${t("lobby.seatAs", { n: mine.seat + 1 })}`;
  const turn = myTurn(g, mine) ? ` <span class="status-pill turn">${esc(t("lobby.yourTurn"))}</span>` : "";
  return `<li class="game-item${turn ? " your-turn" : ""}"><div class="gi-main"><div class="gi-title">${seatNames(g)} <span class="status-pill ${g.status}">${esc(t("lobby.status." + g.status))}</span>${turn}</div>` +
    `<div class="gi-meta">#${esc(g.id)} · ${esc(meta)}</div></div><div class="gi-acts">${acts}</div></li>`;
}

// The finished games list shows a few; the rest behind a button (it would fill a phone screen).
const FINISHED_SHOWN = 5;
let showAllFinished = false;

function renderLists() {
  const mine = allSeats();
  const put = (sel, games) => {
    $(sel).innerHTML = games.length ? games.map((g) => item(g, mine[g.id])).join("") : `<li class="muted">${esc(t("lobby.none"))}</li>`;
  };
  const ids = new Set(yours.map((g) => g.id));
  $("#yours-card").hidden = yours.length === 0;
  const byTurn = [...yours].sort((a, b) => Number(myTurn(b, mine[b.id])) - Number(myTurn(a, mine[a.id])));
  put("#list-yours", byTurn);
  notifyNewTurns(yours, mine);
  const bell = $("#notify-box");
  bell.innerHTML = yours.some((g) => g.status !== "finished") ? notifyControl() : "";
  wireNotify(bell, renderLists);
  put("#list-open", lists.open.filter((g) => !ids.has(g.id)));
  put("#list-running", lists.running.filter((g) => !ids.has(g.id)));
  const finished = lists.finished.slice(0, 30);
  put("#list-finished", showAllFinished ? finished : finished.slice(0, FINISHED_SHOWN));
  if (!showAllFinished && finished.length > FINISHED_SHOWN) {
    $("#list-finished").insertAdjacentHTML("beforeend",
      `<li><button type="button" class="btn" id="more-finished">${esc(t("lobby.showMore", { n: finished.length - FINISHED_SHOWN }))}</button></li>`);
    $("#more-finished").addEventListener("click", () => { showAllFinished = true; renderLists(); });
  }
  document.querySelectorAll(".join-btn").forEach((b) => b.addEventListener("click", () => join(b.dataset.id)));
  document.querySelectorAll(".forget-btn").forEach((b) => b.addEventListener("click", () => {
    forgetSeat(b.dataset.id);
    yours = yours.filter((g) => g.id !== b.dataset.id);
    renderLists();
  }));
}

async function join(id) {
  const name = $("#name").value.trim();
  if (!name) { toastUntilTyped(t("lobby.needName"), $("#name")); $("#name").focus(); return; }
  saveName(name);
  try {
    const r = await api("POST", `/api/games/${encodeURIComponent(id)}/join`, { name });
    await saveSeat(id, r.seat, r.token, name);
    location.href = `/g/${encodeURIComponent(id)}`;
  } catch (ex) { toast(ex.message, "bad"); loadLists(); }
}

async function loadLists() {
  const get = async (status) => {
    try { return (await api("GET", `/api/games?status=${status}`)).games || []; } catch (e) { return []; }
  };
  const [open, running, finished] = await Promise.all([get("open"), get("running"), get("finished")]);
  await showLists(open, running, finished);
}

async function showLists(open, running, finished) {
  lists = { open, running, finished };
  const mineIds = Object.entries(allSeats()).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0)).map(([id]) => id).slice(0, 20);
  const known = new Map([...open, ...running, ...finished].map((g) => [g.id, g]));
  yours = (await Promise.all(mineIds.map(async (id) => {
    if (known.has(id)) return known.get(id);
    try { return await api("GET", `/api/games/${encodeURIComponent(id)}`); } catch (e) {
      if (e.status === 404) forgetSeat(id);
      return null;
    }
  }))).filter(Boolean);
  renderLists();
}

async function importRecord(file) {
  try {
    // Send the file as it is: JSON.parse would round the 63-bit seed (and replay another game).
    const text = await file.text();
    JSON.parse(text); // a clear error for a file that is not JSON at all
    const res = await fetch("/api/records", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const r = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(r.message || r.error || `HTTP ${res.status}`);
    location.href = `/replay/${encodeURIComponent(r.game.id)}`;
  } catch (ex) { toast(ex.message, "bad"); }
}

function renderAll() {
  renderChat();
  renderSeats();
  renderCreated();
  renderLists();
  $("#hero-tiles").innerHTML = ["ra", "god", "pharaoh", "nile", "astronomy", "pyramid", "earthquake"].map((k) => tileSVG(k, { label: false })).join("");
  document.title = `${t("app.title")} — ${t("lobby.new")}`;
}

// How the chosen level fares against the one below (the server's measured ladder).
let levels = [];
function renderLevelNote() {
  const info = levels.find((l) => l.level === $("#quick-level").value);
  const level = (id) => t(`lobby.level.${id}`);
  $("#level-note").textContent = !info ? "" : info.beats
    ? t("lobby.levelBeats", { level: level(info.level), below: level(info.beats.below), n: info.beats.won, games: info.beats.games })
    : t(`lobby.levelNote.${info.level}`);
}
api("GET", "/api/levels").then((r) => { levels = r.levels; renderLevelNote(); }).catch(() => {});
$("#quick-level").addEventListener("change", renderLevelNote);

// The leaderboard is one click away from the lobby, on a phone too.
mountHeader(() => { renderAll(); renderLevelNote(); });
$("#name").value = savedName();
// "Type your name first" goes once a name is typed (the toast goes by itself: toastUntilTyped).
$("#name").addEventListener("input", () => {
  if (!$("#name").value.trim()) return;
  for (const el of [$("#quick-error"), $("#form-error")]) if (el.textContent === t("lobby.needName")) el.textContent = "";
});
$("#hints").addEventListener("change", (e) => {
  e.target.dataset.touched = "1";
  if (e.target.checked) $("#rated").checked = false;
});
$("#rated").addEventListener("change", (e) => {
  e.target.dataset.touched = "1";
  if (e.target.checked) $("#hints").checked = false;
});
$("#add-seat").addEventListener("click", () => { if (seats.length < 5) { seats.push({ kind: "bot", level: "medium" }); renderSeats(); } });
$("#variant").addEventListener("change", syncVariant);
$("#create-form").addEventListener("submit", create);
$("#refresh").addEventListener("click", loadLists);
$("#import-file").addEventListener("change", (e) => { if (e.target.files[0]) importRecord(e.target.files[0]); });
// ---- quick play and seek ----------------------------------------------------

// Quick play plays at once (issue 54: a guest had to type a name first; lichess plays at once):
// with no name typed, a guest's name ("Guest 4821", in the page's language) is put in the field
// and kept for the next time, to be changed there any time.
function quickName() {
  let name = $("#name").value.trim();
  if (!name) {
    name = t("lobby.guestName", { n: 1000 + Math.floor(Math.random() * 9000) });
    $("#name").value = name;
  }
  $("#quick-error").textContent = "";
  saveName(name);
  return name;
}

async function quickPlay() {
  const name = quickName();
  if (!name) return;
  const level = $("#quick-level").value;
  const n = Number($("#quick-players").value);
  const bots = Array.from({ length: n - 1 }, () => ({ kind: "bot", level }));
  try {
    const r = await api("POST", "/api/games", { seats: [{ kind: "human" }, ...bots], name, join: true });
    await saveSeat(r.game.id, r.seat, r.token, name);
    location.href = `/g/${encodeURIComponent(r.game.id)}`;
  } catch (ex) { $("#quick-error").textContent = ex.message; }
}

async function seek() {
  const name = quickName();
  if (!name) return;
  const players = Number($("#quick-players").value);
  try {
    const r = await api("POST", "/api/seek", { players, name, speed: $("#quick-speed").value });
    await saveSeat(r.game.id, r.seat, r.token, name);
    location.href = `/g/${encodeURIComponent(r.game.id)}`;
  } catch (ex) {
    $("#quick-error").textContent = ex.code === "no_table" ? t("lobby.seekNone", { n: players }) : ex.message;
  }
}

// ---- the live lobby: the server pushes the lists; polling only while that link is down ----

let polling = null;
let retry = 1000;
let everLive = false;

// A lobby that was live and lost its link says so and offers nothing it cannot do (the table
// page does the same): its buttons wait for the server.
function setLive(live) {
  everLive = everLive || live;
  const lost = !live && everLive;
  const b = $("#conn-banner");
  b.textContent = lost ? t("conn.lostNow") : "";
  b.hidden = !lost;
  document.querySelectorAll("main.lobby button").forEach((x) => { x.disabled = lost; });
  $("#live-mark").hidden = !live;
  $("#refresh").hidden = live; // the lists come by themselves
  if (live && polling) { clearInterval(polling); polling = null; }
  if (!live && !polling) polling = setInterval(loadLists, 15000);
}

function followLobby() {
  let ws;
  try { ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/lobby`); } catch (e) { setLive(false); return; }
  ws.addEventListener("message", (e) => {
    let m = null;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    if (m && m.type === "chat") { onChat(m); return; }
    if (!m || m.type !== "lobby") return;
    retry = 1000;
    setLive(true);
    showLists(m.open || [], m.running || [], m.finished || []);
  });
  ws.addEventListener("close", () => {
    setLive(false);
    setTimeout(followLobby, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

// The lobby chat: said over HTTP, heard over the lobby's socket (chat.js draws it).
function lobbySay(msg) {
  const done = msg.type === "report"
    ? api("POST", `/api/lobby/chat/${encodeURIComponent(msg.id)}/report`).then(onReported)
    : api("POST", "/api/lobby/chat", { name: msg.name, text: msg.text });
  done.catch((ex) => toast(ex.status === 429 ? t("err.rate_limited") : ex.message, "bad"));
  return true;
}

mountChat(lobbySay, () => null);
$("#quick-btn").addEventListener("click", quickPlay);
$("#seek-btn").addEventListener("click", seek);
renderAll();
loadLists();
setLive(false);
followLobby();
