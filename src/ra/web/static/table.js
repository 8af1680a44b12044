// The table: one WebSocket to the server, the position rendered from this seat's view,
// only legal actions offered (buttons, clicks on tiles, keys), alerts and reconnects.
import { t, has, join, tileName, tileList, playerName, render as renderMsg } from "./i18n.js";
import { sunSVG, esc } from "./tiles.js";
import {
  $, setHTML, setItemsHTML, setText, scrollToEnd, mountHeader, api, getSeat, saveSeat, forgetSeat, savedName, saveName, absLink,
  gameIdFromPath, toast, copyText, account,
} from "./common.js";
import { mountChat, onChat, onReported, renderChat } from "./chat.js";
import { notifyControl, notifyTurn, wireNotify } from "./notify.js";
import { icon } from "./icons.js";
import { renderBoard, renderPlayer, renderLog, renderScoring, renderFinal, statusLine, names, scoringByEpoch, renderLegend, lastMoveLine } from "./board.js";

const gameId = gameIdFromPath("g");

// Seat link: store the token, then drop it from the address bar.
{
  const q = new URLSearchParams(location.search);
  if (q.get("token") && q.get("seat") !== null && gameId) {
    saveSeat(gameId, q.get("seat"), q.get("token"), null);
    history.replaceState(null, "", `/g/${encodeURIComponent(gameId)}`);
    setTimeout(() => toast(t("table.seatLinkSaved"), "ok"), 300);
  }
}

const S = {
  game: null, seat: null, n: 0, view: null, legal: [], canUndo: false, events: [],
  connected: null, ws: null, retry: 0, retryTimer: null, everConnected: false, lostShown: false,
  sending: false, myTurn: false, fresh: null, rematch: null, seenScoreEpochs: new Set(), initial: true,
  summaryEpoch: null, summaryAt: 0, summaryShown: 0, summaryTimer: null, logKey: null, digitBuf: "", digitTimer: null, pingTimer: null,
  stateAt: 0, sentAt: 0, askedAt: 0, resyncs: 0,
};

let soundOn = false;
try { soundOn = localStorage.getItem("ra.sound") === "1"; } catch (e) { /* ignore */ }

function soundButton() {
  return `<button type="button" id="sound-btn" class="nav-btn" aria-pressed="${soundOn}" aria-label="${esc(t(soundOn ? "table.soundOn" : "table.soundOff"))}"><span aria-hidden="true">♪</span><span class="nav-label"> ${esc(t(soundOn ? "table.soundOn" : "table.soundOff"))}</span></button>` +
    `<button type="button" id="help-btn" class="nav-btn" aria-keyshortcuts="?" aria-label="${esc(t("nav.help"))}"><span aria-hidden="true">?</span><span class="nav-label"> ${esc(t("nav.help"))}</span></button>`;
}

function mountTop() {
  const old = document.querySelector("header.topbar");
  if (old) old.remove();
  const h = mountHeader(() => { mountTop(); render(); updateTitle(); }, soundButton());
  $("#sound-btn", h).addEventListener("click", () => {
    soundOn = !soundOn;
    try { localStorage.setItem("ra.sound", soundOn ? "1" : "0"); } catch (e) { /* ignore */ }
    if (soundOn) beep();
    mountTop();
  });
  $("#help-btn", h).addEventListener("click", () => $("#help-dlg").showModal());
}

let audioCtx = null;
function beep() {
  if (!soundOn) return;
  try {
    audioCtx = audioCtx || new (window.AudioContext || window.webkitAudioContext)();
    const o = audioCtx.createOscillator(), g = audioCtx.createGain();
    o.type = "sine";
    o.frequency.value = 740;
    g.gain.setValueAtTime(0.0001, audioCtx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.12, audioCtx.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, audioCtx.currentTime + 0.35);
    o.connect(g).connect(audioCtx.destination);
    o.start();
    o.stop(audioCtx.currentTime + 0.4);
  } catch (e) { /* no audio */ }
}

// ---- connection --------------------------------------------------------------

function wsUrl() {
  return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/games/${encodeURIComponent(gameId)}`;
}

function banner(text, kind) {
  const b = $("#conn-banner");
  if (!text) { b.hidden = true; return; }
  b.textContent = text;
  b.className = `conn-banner ${kind || ""}`;
  b.hidden = false;
}

function connect() {
  clearTimeout(S.retryTimer);
  let ws;
  try { ws = new WebSocket(wsUrl()); } catch (e) { scheduleReconnect(); return; }
  S.ws = ws;
  ws.onopen = () => {
    const mine = getSeat(gameId);
    // A reconnect sends what it holds (since + key): the server then sends only what is missing.
    const resume = S.events.length && S.logKey ? { since: S.events.length, key: S.logKey } : {};
    ws.send(JSON.stringify({ type: "hello", token: mine ? mine.token : null, ...resume }));
    if (S.lostShown) {
      banner(t("conn.restored"), "ok");
      setTimeout(() => { if (S.connected) banner(null); }, 2500);
    }
    S.lostShown = false;
    S.retry = 0;
    S.connected = true;
    S.everConnected = true;
    clearInterval(S.pingTimer);
    S.pingTimer = setInterval(() => { if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" })); }, 25000);
  };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    onMessage(msg);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    S.connected = false;
    S.sending = false;
    clearInterval(S.pingTimer);
    if (S.fatal) { banner(null); return; }
    // 1012: the server restarts; 1001: it is going away. Either way: reconnect with backoff.
    scheduleReconnect(ev && (ev.code === 1012 || ev.code === 1001));
    render();
  };
  ws.onerror = () => { /* onclose follows */ };
}

// Retries come quickly (a server that restarts answers again within seconds): 0.25 s doubling
// to 2 s at most, jittered so that a whole table does not knock at once; the browser's
// "online" and "visible again" events, and the banner's button, retry at once.
function scheduleReconnect(restarting = false) {
  clearTimeout(S.retryTimer);
  const base = Math.min(2, 0.25 * 2 ** Math.min(S.retry, 3));
  const delay = base * (0.5 + Math.random());
  S.retry += 1;
  S.lostShown = true;
  connectionBanner(restarting ? t("conn.shutdown") : t("conn.lostNow"));
  S.retryTimer = setTimeout(() => { connectionBanner(t("conn.connecting")); connect(); }, delay * 1000);
}

function connectionBanner(text) {
  const b = $("#conn-banner");
  b.innerHTML = `<span>${esc(text)}</span> <button type="button" class="btn small" id="reconnect-now">${esc(t("conn.now"))}</button>`;
  b.className = "conn-banner warn";
  b.hidden = false;
  $("#reconnect-now", b).addEventListener("click", retryNow);
}

// Try again at once (the banner's button, the browser back online or the tab visible again).
function retryNow() {
  if (S.connected || S.fatal) return;
  if (S.ws && S.ws.readyState === 0) return;  // already trying
  clearTimeout(S.retryTimer);
  connectionBanner(t("conn.connecting"));
  connect();
}

// No silent stall (issue 40, finding 7): a page that sent an action, or waits on a quick turn
// (a bot's, a stand-in's, or a person's whose clock ran out: the server's stand-in then decides),
// and has had no state for RESYNC_AFTER_MS asks again on a fresh socket: its hello carries since
// and key, so the answer is only what it missed. A socket that looks open may deliver nothing (a
// proxy, a server whose send queue stalled, a lost notification between workers). A turn of a
// person with time left is quiet for as long as they think: the page never asks then.
const RESYNC_AFTER_MS = 20000;

function expectedSince() {
  if (!S.connected || S.fatal || !S.game || S.game.status !== "running" || !S.view || S.view.phase === "over") return null;
  if (S.sending) return S.sentAt;
  const mover = S.game.seats[S.view.to_move];
  if (mover && (mover.kind === "bot" || mover.away)) return S.stateAt + 1000 * Number(S.game.options.bot_delay || 0);
  if (S.clockLeft !== null && S.clockLeft !== undefined) return Math.max(S.stateAt, S.clockAt + 1000 * S.clockLeft);
  return null;
}

function resync() {
  S.resyncs += 1;
  S.askedAt = performance.now();
  const old = S.ws;
  S.ws = null;
  if (old) {
    old.onmessage = null;
    old.onclose = null;
    try { old.close(); } catch (e) { /* already closed */ }
  }
  clearInterval(S.pingTimer);
  connect();
}

setInterval(() => {
  const since = expectedSince();
  if (since !== null && performance.now() - Math.max(since, S.askedAt) > RESYNC_AFTER_MS) resync();
}, 1000);

window.addEventListener("online", retryNow);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") retryNow(); });

function send(obj) {
  if (!S.ws || S.ws.readyState !== 1 || !S.connected) {
    toast(t("conn.notSent"), "bad");  // never dropped silently
    return false;
  }
  S.ws.send(JSON.stringify(obj));
  return true;
}

function act(action) {
  if (S.sending || !S.legal.includes(action)) return;
  if (send({ type: "action", action, n: S.n })) {
    S.sending = true;
    S.sentAt = performance.now();
    renderActions();
  }
}

function hintsOn() { return !!(S.game && S.game.options && S.game.options.hints); }

function askHint() {
  if (!hintsOn() || !S.legal.length || S.hintFor === S.n) return;
  if (send({ type: "hint", n: S.n })) { S.hintFor = S.n; renderActions(); }
}

// An action's words, as on its button.
function actionLabel(a) {
  const ed = edition();
  if (a.startsWith("bid ")) return t("table.bid", { n: Number(a.slice(4)) });
  if (a.startsWith("god ")) return t("table.god", { tile: tileName(a.slice(4), ed) });
  if (a.startsWith("discard ")) return t("table.discard", { tile: tileName(a.slice(8), ed) });
  return t(`table.${a}`);
}

// A legal action's button: its win chance from the hint, the starred one marked (the server's
// decision: none on an exact tie, issue 53).
function chanceOf(action) {
  const h = S.hint && S.hint.n === S.n ? S.hint : null;
  const v = h && h.actions.find((a) => a.action === action);
  if (!v) return { cls: "", html: "" };
  const best = h.starred === action;
  return { cls: best ? " best" : "", html: `<span class="chance">${best ? "★ " : ""}${Math.round(100 * v.chance)}%</span>` };
}

function undo() {
  if (S.sending || !S.canUndo) return;
  if (send({ type: "undo", n: S.n })) { S.sending = true; S.sentAt = performance.now(); renderActions(); }
}

function onMessage(msg) {
  switch (msg.type) {
    case "state": return onState(msg);
    case "presence":
      if (S.game && Array.isArray(msg.connected)) {
        msg.connected.forEach((c, i) => { if (S.game.seats[i]) S.game.seats[i].connected = c; });
        renderPlayers();
        renderWaiting();
      }
      return undefined;
    case "error": {
      // After "stale" the server sends the new state: keep the old buttons disabled until then.
      if (msg.code !== "stale") S.sending = false;
      if (S.hintFor === S.n && !(S.hint && S.hint.n === S.n)) S.hintFor = null; // may ask again
      const key = `err.${msg.code}`;
      let txt = t(key) !== key ? t(key) : t("err.generic", { msg: msg.message || msg.code });
      if (msg.why && S.view) txt = renderMsg(msg.why, names(S.view), S.seat); // the rule's reason, in our words
      toast(txt, msg.code === "stale" ? "info" : "bad");
      if (msg.code === "bad_token" || msg.code === "seat_lost") { forgetSeat(gameId); HERE.checked = false; }
      if (msg.code === "not_found") { S.fatal = true; $("#status").textContent = t("table.notFound"); }
      renderActions();
      return undefined;
    }
    case "hint":
      if (msg.n === S.n) { S.hint = msg; renderActions(); }
      return undefined;
    case "undone":
      // Everyone is told when a decision is taken back (ra.table's one undo policy).
      toast(t("table.undone", { name: msg.name, action: actionLabel(msg.action) }), "info", 6000);
      return undefined;
    case "rematch":
      S.rematch = msg.game;
      renderRematch();
      return undefined;
    case "shutdown":
      banner(t("conn.shutdown"), "warn");
      return undefined;
    case "chat": return onChat(msg);
    case "reported": return onReported();
    default: return undefined;
  }
}

// What just changed, from the new events: tiles drawn, lots won, tiles destroyed.
function freshFrom(newEvents, view) {
  const f = { auction: new Set(), ra: false, tiles: {}, lost: {}, flash: new Set(), last: null };
  let draws = 0;
  for (const ev of newEvents) {
    if (ev.kind === "draw") { if (ev.tile === "ra") f.ra = true; else draws += 1; }
    if (ev.kind === "win" || ev.kind === "god") {
      f.flash.add(ev.seat);
      const set = (f.tiles[ev.seat] = f.tiles[ev.seat] || new Set());
      (ev.tiles && ev.tiles.length ? ev.tiles : [ev.tile]).forEach((k) => k && set.add(k));
    }
    if (ev.kind === "discard") (f.lost[ev.seat] = f.lost[ev.seat] || []).push(ev.tile);
    if (ev.kind === "epoch" || ev.kind === "win" || ev.kind === "no_bid") { draws = 0; f.ra = ev.kind === "epoch" ? false : f.ra; }
  }
  const len = view ? view.auction_track.length : 0;
  for (let i = Math.max(0, len - draws); i < len; i++) f.auction.add(i);
  return f;
}

function onState(msg) {
  const oldLen = S.events.length;
  const from = msg.events_from || 0;
  const incoming = msg.events || [];
  // A full resend (events_from 0, e.g. after a reconnect) replaces the log; only the entries
  // beyond what we had are new (an undo shortens the log: nothing new).
  S.events = S.events.slice(0, from).concat(incoming);
  const newEvents = S.events.length > oldLen ? S.events.slice(oldLen) : [];
  S.game = msg.game;
  S.seat = msg.seat ?? null;
  S.n = msg.n;
  S.clockLeft = msg.clock_left ?? null; // counted down from when it came: no clock skew
  S.clockAt = performance.now();
  S.stateAt = S.clockAt;
  S.view = msg.view || null;
  S.legal = msg.legal || [];
  S.canUndo = !!msg.can_undo;
  S.sending = false;
  S.logKey = msg.log_key || null;
  if (S.game && S.game.rematch) S.rematch = S.game.rematch;
  if (S.seat === null && getSeat(gameId) && S.game && S.game.status !== "open") {
    // A token the server did not take: we watch.
  }
  if (!S.initial && newEvents.length) {
    S.fresh = freshFrom(newEvents, S.view);
    const lost = newEvents.filter((e) => e.kind === "discard" && e.seat === S.seat);
    if (lost.length) toast(t("table.youLose", { tiles: tileList(lost.map((e) => e.tile), edition()) }), "bad", 5000);
  } else if (S.initial) {
    S.fresh = null;
  }
  // Epoch scoring summary: show the newest epoch's table when it arrives.
  if (S.view) {
    const tables = scoringByEpoch(S.events, S.view.players.length);
    const latest = tables.length ? tables[tables.length - 1].epoch : null;
    if (latest !== null && !S.seenScoreEpochs.has(latest)) {
      S.seenScoreEpochs.add(latest);
      if (!S.initial && S.view.phase !== "over") {
        S.summaryEpoch = latest;
        S.summaryAt = S.n;
        S.summaryShown = Date.now();
      }
    } else if (S.summaryEpoch !== null && S.n > S.summaryAt) {
      closeSummarySoon();  // the next decision closes it: the board and the buttons stay in view
    }
    if (S.initial) tables.forEach((x) => S.seenScoreEpochs.add(x.epoch));
  }
  const myTurn = S.legal.length > 0;
  if (myTurn && !S.myTurn) {
    beep();
    notifyTurn(statusLine(S.view, S.seat, edition()), `/g/${gameId}`);
  }
  S.myTurn = myTurn;
  updateTitle();
  S.initial = false;
  if (S.seat === null && S.game && S.game.status !== "finished") findAccountSeat();
  render();
}

// The tab title says when it is your turn; while the tab is hidden it blinks.
let blinkTimer = null;
function updateTitle() {
  const base = `${t("app.title")} — ${gameId}`;
  clearInterval(blinkTimer);
  blinkTimer = null;
  if (!S.myTurn) { document.title = base; return; }
  document.title = t("table.yourTurnTitle");
  if (document.hidden) {
    let on = true;
    blinkTimer = setInterval(() => { on = !on; document.title = on ? t("table.yourTurnTitle") : base; }, 1000);
  }
}
document.addEventListener("visibilitychange", updateTitle);

function edition() { return (S.game && S.game.options && S.game.options.edition) || "original"; }

// ---- rendering ---------------------------------------------------------------

function render() {
  renderStatus();
  renderWaiting();
  renderRematch();
  renderFinalArea();
  renderSummary();
  renderBoardArea();
  renderActions();
  renderPlayers();
  setHTML($("#tile-legend"), S.view ? renderLegend() : "");
  renderLogArea();
  renderLinks();
  renderChat();
  renderClock();
  renderAway();
  renderHere();
  lockPicks();
}

// While a move is on its way (or the connection is down) every way to act is disabled — the
// tiles on the board and the players' areas as well as the buttons — until the next state.
function lockPicks() {
  const off = S.sending || !S.connected;
  document.querySelectorAll("main [data-act]").forEach((b) => { b.disabled = off; });
}

// Rated or casual; at a rated game's end, why it did not count if it did not: the server's rating
// policy decides (ra.web.rating_policy), asked once the game is over, e.g. a seat that walked away
// before its 5th decision aborts the game for rating.
function ratedNote() {
  if (S.game.options.casual) return t("table.casualNote");
  if (S.game.status !== "finished") return t("table.ratedNote");
  if (S.ratingNote === undefined) {
    S.ratingNote = null;
    api("GET", `/api/games/${encodeURIComponent(gameId)}/rating`)
      .then((note) => { S.ratingNote = note; renderStatus(); })
      .catch(() => {}); // stays null: the plain note, not asked again
  }
  const note = S.ratingNote;
  if (!note || note.why !== "aborted") return t("table.ratedNote");
  const who = note.walked.map((i) => playerName(S.game.seats[i].name));
  const key = who.length > 1 ? "table.abortedNoteMany" : "table.abortedNote";
  return t(key, { name: who[0], names: join(who), n: note.min_decisions });
}

function renderStatus() {
  const st = $("#status");
  const last = $("#last-event");
  if (!S.game) { setText(st, t("table.loading")); setText(last, ""); return; }
  const rated = $("#rated-note");  // rated or casual, as the table was made (ra.web.rating_policy)
  rated.hidden = false;
  setText(rated, ratedNote());
  const bar = $("#status-bar");
  if (S.game.status === "open") {
    setText(st, t("table.waitingRoom"));
    setText(last, "");
    bar.classList.remove("mine");
    return;
  }
  if (!S.view) return;
  let text = statusLine(S.view, S.seat, edition());
  if (S.seat === null) text = `${text} ${t("table.spectating")}`;
  setText(st, text);
  bar.classList.toggle("mine", S.legal.length > 0);
  setText(last, lastMoveLine(S.events, names(S.view), S.seat));
}

// ---- the clock: seconds for each decision; a seat out of time is played by a bot until its person is back ----

function renderClock() {
  const box = $("#clock");
  const left = S.clockLeft === null || S.clockLeft === undefined ? null : S.clockLeft - (performance.now() - S.clockAt) / 1000;
  box.hidden = left === null || !S.view || S.view.phase === "over";
  if (box.hidden) return;
  const s = Math.max(0, Math.ceil(left));
  const time = clockText(s);
  const who = S.view.to_move === S.seat ? t("clock.yours", { time }) : t("clock.theirs", { name: playerName(S.view.players[S.view.to_move].name), time });
  setText(box, `◷ ${gameClocks(s) || who}`);
  box.classList.toggle("low", s <= 10);
}

function clockText(s) {
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return d ? t("clock.days", { d, h }) : h ? `${h}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}` : `${m}:${String(sec).padStart(2, "0")}`;
}

// Under a game clock, every person's time left, the mover's marked and counting down (``moverLeft``).
function gameClocks(moverLeft) {
  if (!S.game || !S.game.options.game_seconds) return "";
  const list = S.game.seats.filter((x) => x.clock !== null && x.clock !== undefined)
    .map((x) => `${x.seat === S.view.to_move ? "▸\u00a0" : ""}${playerName(S.view.players[x.seat].name)}\u00a0${clockText(x.seat === S.view.to_move ? moverLeft : Math.ceil(x.clock))}`);
  return list.length ? t("clock.banks", { list: list.join(", ") }) : "";
}

function renderAway() {
  const box = $("#away-box");
  const mine = S.game && S.seat !== null ? S.game.seats[S.seat] : null;
  box.hidden = !(mine && mine.away && S.view && S.view.phase !== "over");
  if (box.hidden) return;
  if (mine.forfeited) { box.textContent = t("clock.forfeitedYou"); return; }
  box.innerHTML = `${esc(t("clock.awayYou", { level: t("lobby.level." + (S.game.options.stand_in || "medium")) }))} ` +
    `<button type="button" class="btn small primary" id="back-btn">${esc(t("clock.back"))}</button>`;
  $("#back-btn").addEventListener("click", () => send({ type: "back" }));
}

setInterval(renderClock, 250);

// ---- the account's seat, opened on another device --------------------------------
// The mailed link (/g/ID) opened where the person is signed in but this browser holds no token
// for the seat: offer to play the account's seat here (a new token; the other device's page closes).

const HERE = { checked: false, seat: null, csrf: null, name: null };

async function findAccountSeat() {
  if (HERE.checked || !gameId) return;
  HERE.checked = true;
  try {
    const me = await account();
    if (!me) return;
    const { name, csrf } = me;
    const p = await fetch(`/api/players/${encodeURIComponent(name)}`);
    if (!p.ok) return;
    const g = (await p.json()).games.find((x) => x.id === gameId && x.status !== "finished");
    Object.assign(HERE, { seat: g ? g.seat : null, csrf, name });
  } catch (e) { /* offline: the page watches */ }
  renderHere();
}

function renderHere() {
  const box = $("#here-box");
  const show = HERE.seat !== null && S.seat === null && !getSeat(gameId) && S.game && S.game.status !== "finished";
  box.hidden = !show;
  if (!show) return;
  box.innerHTML = `<span>${esc(t("table.hereOffer", { n: HERE.seat + 1, name: HERE.name }))}</span> ` +
    `<button type="button" class="btn small primary" id="here-btn">${esc(t("account.playHere"))}</button>`;
  $("#here-btn", box).addEventListener("click", playHere);
}

async function playHere() {
  const b = $("#here-btn");
  if (b) b.disabled = true;
  try {
    const res = await fetch(`/api/account/seats/${encodeURIComponent(gameId)}/${HERE.seat}/here`,
      { method: "POST", headers: { "X-CSRF-Token": HERE.csrf || "" } });
    const r = await res.json().catch(() => ({}));
    if (!res.ok) {
      HERE.seat = null;
      HERE.checked = false;  // ask again at the next state: the seat may have gone
      throw new Error(has(`err.${r.error}`) ? t(`err.${r.error}`) : r.message || `HTTP ${res.status}`);
    }
    await saveSeat(r.game, r.seat, r.token, HERE.name);
    toast(t("table.hereDone"), "ok");
    reconnectNow();
  } catch (ex) {
    toast(ex.message, "bad");
    renderHere();
  }
}

function renderWaiting() {
  const box = $("#waiting");
  if (!S.game || S.game.status !== "open") { box.hidden = true; return; }
  box.hidden = false;
  const mine = getSeat(gameId);
  const link = absLink(`/g/${gameId}`);
  const freeHuman = S.game.seats.filter((s) => s.kind === "human" && !s.taken);
  const seats = S.game.seats.map((s) => {
    const who = s.kind === "bot" ? `⚙ ${esc(playerName(s.name) || t("table.bot"))}` : s.taken ? esc(s.name || "?") : `<em>${esc(t("table.free"))}</em>`;
    const conn = s.kind === "human" && s.taken ? (S.connected && s.connected ? ` <span class="conn on">● ${esc(t("table.online"))}</span>` : ` <span class="conn off">○ ${esc(t("table.offline"))}</span>`) : "";
    return `<li>${esc(t("lobby.seat", { n: s.seat + 1 }))}: ${who}${conn}${mine && mine.seat === s.seat ? ` <span class="badge you">${esc(t("table.you"))}</span>` : ""}</li>`;
  }).join("");
  const join = !mine && freeHuman.length
    ? `<form id="join-form" class="inline-form"><label>${esc(t("lobby.name"))} <input id="join-name" required maxlength="24" value="${esc(savedName())}" placeholder="${esc(t("lobby.namePh"))}"></label>` +
      `<button class="btn primary" type="submit">${esc(t("table.joinAs"))}</button></form>` : "";
  const leave = mine ? `<button type="button" class="btn" id="leave-btn">${esc(t("table.leave"))}</button>` : "";
  // Keep what the visitor is typing across re-renders (presence changes arrive any time).
  const typing = $("#join-name", box);
  const typed = typing ? typing.value : null;
  const hadFocus = typing && document.activeElement === typing;
  box.innerHTML = `<h2>${esc(t("table.waitingRoom"))}</h2><p>${esc(t("table.waitingHelp"))}</p>` +
    `<div class="share"><input class="share-input" readonly value="${esc(link)}" aria-label="${esc(t("table.shareLink"))}"><button type="button" class="btn" id="copy-link">${esc(t("lobby.copy"))}</button></div>` +
    `<ul class="seat-list">${seats}</ul>${join}${leave}`;
  $("#copy-link", box).addEventListener("click", async () => { if (await copyText(link)) toast(t("lobby.copied"), "ok"); });
  const jf = $("#join-form", box);
  const input = $("#join-name", box);
  if (input && typed !== null) { input.value = typed; if (hadFocus) input.focus(); }
  if (jf) jf.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("#join-name", box).value.trim();
    if (!name) return;
    saveName(name);
    try {
      const r = await api("POST", `/api/games/${gameId}/join`, { name });
      saveSeat(gameId, r.seat, r.token, name);
      reconnectNow();
    } catch (err) { toast(err.message, "bad"); }
  });
  const lb = $("#leave-btn", box);
  if (lb) lb.addEventListener("click", async () => {
    try { await api("POST", `/api/games/${gameId}/leave`, { token: mine.token }); } catch (err) { toast(err.message, "bad"); }
    forgetSeat(gameId);
    reconnectNow();
  });
}

function reconnectNow() {
  if (S.ws) { const w = S.ws; S.ws = null; w.close(); }
  S.events = [];
  S.initial = true;
  connect();
}

function renderRematch() {
  const box = $("#rematch");
  if (!S.rematch) { box.hidden = true; return; }
  box.hidden = false;
  const mine = getSeat(gameId);
  const already = getSeat(S.rematch);
  box.innerHTML = `<p>${esc(t("table.rematchReady"))}</p>` +
    (mine && !already ? `<button type="button" class="btn primary" id="rematch-join">${esc(t("table.again"))}</button>`
      : `<a class="btn primary" href="/g/${encodeURIComponent(S.rematch)}">${esc(t("table.goRematch"))}</a>`);
  const b = $("#rematch-join", box);
  if (b) b.addEventListener("click", playAgain);
}

async function playAgain() {
  const mine = getSeat(gameId);
  if (!mine) return;
  try {
    const r = await api("POST", `/api/games/${gameId}/again`, { token: mine.token });
    await saveSeat(r.game.id, r.seat, r.token, mine.name);
    location.href = `/g/${encodeURIComponent(r.game.id)}`;
  } catch (err) { toast(err.message, "bad"); }
}

function renderFinalArea() {
  const box = $("#final-area");
  if (!S.view || S.view.phase !== "over") { box.hidden = true; return; }
  box.hidden = false;
  const mine = getSeat(gameId);
  const again = mine && S.seat !== null ? `<button type="button" class="btn primary" id="again-btn">↻ ${esc(t("table.again"))}</button>` : "";
  box.innerHTML = `<div class="card final-card">${renderFinal(S.view, S.events, S.seat, S.game)}` +
    `<div class="final-actions">${again}<a class="btn" href="/replay/${encodeURIComponent(gameId)}">▶ ${esc(t("table.replay"))}</a>` +
    `<a class="btn" id="analyse-link" href="/replay/${encodeURIComponent(gameId)}?analyse=1">${icon("chart")} ${esc(t("analysis.web.start"))}</a>` +
    `<a class="btn" href="/api/games/${encodeURIComponent(gameId)}/record" download="ra-${esc(gameId)}.json">↓ ${esc(t("table.record"))}</a></div>` +
    `<div class="final-scoring">${renderScoring(S.events, S.view)}</div></div>`;
  const b = $("#again-btn", box);
  if (b) b.addEventListener("click", playAgain);
}

// The scoring panel closes at the next decision, but stays at least a few seconds so that a table
// of quick bots does not whisk it away unread (the scoring tables below keep it anyway).
const SUMMARY_MIN_MS = 4000;
function closeSummarySoon() {
  const left = S.summaryShown + SUMMARY_MIN_MS - Date.now();
  const epoch = S.summaryEpoch;
  const close = () => { if (S.summaryEpoch === epoch) { S.summaryEpoch = null; renderSummary(); } };
  if (left <= 0) close();
  else { clearTimeout(S.summaryTimer); S.summaryTimer = setTimeout(close, left); }
}

function renderSummary() {
  const box = $("#epoch-summary");
  if (!S.view || S.summaryEpoch === null || S.view.phase === "over") { box.hidden = true; return; }
  const tables = scoringByEpoch(S.events, S.view.players.length).filter((x) => x.epoch === S.summaryEpoch);
  if (!tables.length) { box.hidden = true; return; }
  box.hidden = false;
  const onlyThis = S.events.filter((e) => e.kind !== "score" || (e.detail ? e.detail.epoch === S.summaryEpoch : true));
  const html = renderScoring(onlyThis, S.view);
  // Keep only this epoch's table.
  const wrap = document.createElement("div");
  wrap.innerHTML = html;
  const mine = wrap.querySelector(`.score-table-wrap[data-epoch="${S.summaryEpoch}"]`);
  box.innerHTML = `<div class="summary-head"><button type="button" class="btn small" id="summary-close">✕ ${esc(t("table.close"))}</button></div>` + (mine ? mine.outerHTML.replace(/<(\/?)h3>/g, "<$1h2>") : html);  // a heading of the page's second level here
  $("#summary-close", box).addEventListener("click", () => { S.summaryEpoch = null; renderSummary(); });
}

function godTakes() {
  return new Set(S.legal.filter((a) => a.startsWith("god ")).map((a) => a.slice(4)));
}

function renderBoardArea() {
  const box = $("#board-area");
  if (!S.view) { setHTML(box, ""); return; }
  setHTML(box, renderBoard(S.view, { edition: edition(), godTakes: godTakes(), fresh: S.fresh && S.fresh.auction, freshRa: S.fresh && S.fresh.ra }));
}

function renderActions() {
  const box = $("#actions");
  if (!S.view || (S.game && S.game.status === "open")) { setHTML(box, ""); box.hidden = true; return; }
  box.hidden = false;
  const ed = edition();
  const dis = S.sending || !S.connected ? " disabled" : "";
  const L = S.legal;
  const parts = [];
  const key = (k) => `<kbd aria-hidden="true">${k}</kbd>`;
  const c = (a) => chanceOf(a);
  if (L.includes("draw")) parts.push(`<button type="button" class="btn act primary${c("draw").cls}" data-act="draw" aria-keyshortcuts="d"${dis}>${key("d")} ${esc(t("table.draw"))}${c("draw").html}</button>`);
  if (L.includes("ra")) parts.push(`<button type="button" class="btn act ra${c("ra").cls}" data-act="ra" aria-keyshortcuts="r"${dis}>${key("r")} ☀ ${esc(t("table.ra"))}${c("ra").html}</button>`);
  const bids = L.filter((a) => a.startsWith("bid ")).map((a) => Number(a.slice(4))).sort((a, b) => a - b);
  if (bids.length) {
    parts.push(`<span class="bid-group"><span class="lbl">${esc(t("table.bidTitle"))}</span>` + bids.map((n) =>
      `<button type="button" class="btn act bid${c(`bid ${n}`).cls}" data-act="bid ${n}" aria-label="${esc(t("table.bid", { n }))}" aria-keyshortcuts="${n}"${dis}>${sunSVG(n)}<span>${esc(t("table.bid", { n }))}</span>${c(`bid ${n}`).html}</button>`).join("") + `</span>`);
  }
  if (L.includes("pass")) parts.push(`<button type="button" class="btn act${c("pass").cls}" data-act="pass" aria-keyshortcuts="p"${dis}>${key("p")} ${esc(t("table.pass"))}${c("pass").html}</button>`);
  const gods = L.filter((a) => a.startsWith("god "));
  if (gods.length) {
    parts.push(`<span class="hint">${esc(t("table.godHint"))}</span>`);
    gods.forEach((a) => parts.push(`<button type="button" class="btn act god${c(a).cls}" data-act="${esc(a)}"${dis}>☥ ${esc(t("table.god", { tile: tileName(a.slice(4), ed) }))}${c(a).html}</button>`));
  }
  if (L.includes("done")) parts.push(`<button type="button" class="btn act${c("done").cls}" data-act="done" aria-keyshortcuts="n"${dis}>${key("n")} ${esc(t("table.done"))}${c("done").html}</button>`);
  const discards = L.filter((a) => a.startsWith("discard "));
  if (discards.length) {
    const why = t("st.yourDiscard", { disaster: tileName(S.view.pending_disaster || "unrest", ed), n: S.view.discards_left || 1 });
    parts.push(`<span class="hint"><strong>${esc(why)}</strong> ${esc(t("table.discardHint"))}</span>`);
    discards.forEach((a) => parts.push(`<button type="button" class="btn act bad${c(a).cls}" data-act="${esc(a)}"${dis}>✕ ${esc(t("table.discard", { tile: tileName(a.slice(8), ed) }))}${c(a).html}</button>`));
  }
  if (hintsOn() && L.length) {
    const h = S.hint && S.hint.n === S.n ? S.hint : null;
    if (h) {
      const me = S.seat ?? 0;
      // The reason is a catalogue message (players by seat, this seat addressed as "you").
      const why = h.reason && typeof h.reason === "object" ? ` — ${esc(renderMsg(h.reason, names(S.view), me))}` : "";
      const weaker = h.source === "flat" ? ` <small>${esc(t("table.hintWeaker"))}</small>` : "";
      // The chance is on the starred action's button (★ 42%): the box names the action and why;
      // on a tie nothing is starred and the box names the equals.
      const head = h.starred
        ? t("table.hintBest", { action: actionLabel(h.starred) })
        : t("table.hintTie", { actions: join(h.tied.map(actionLabel)) });
      // Beside the buttons' chances (best play from here): the chance given who is playing.
      const given = typeof h.given === "number" ? `<br><small class="hint-given">${esc(t("table.hintGiven", { chance: `${Math.round(100 * h.given)}%` }))}</small>` : "";
      parts.push(`<p class="hint-box" id="hint-box" role="status">${esc(head)}${why}${weaker}${given}</p>`);
    } else {
      const busy = S.hintFor === S.n;
      parts.push(`<button type="button" class="btn small" data-hint="1" aria-keyshortcuts="h"${busy ? " disabled" : ""}>${key("h")} ${esc(t(busy ? "table.hintThinking" : "table.hint"))}</button>`);
    }
  }
  if (S.canUndo) parts.push(`<button type="button" class="btn undo" data-undo="1" aria-keyshortcuts="u"${dis}>${key("u")} ↶ ${esc(t("table.undo"))}</button>`);
  if (!parts.length) {
    let msg = "";
    if (S.seat === null) msg = t("table.spectating");
    else if (S.view.phase !== "over" && S.view.to_move !== null && S.view.to_move !== undefined) msg = t("table.waiting", { name: playerName(S.view.players[S.view.to_move].name) });
    setHTML(box, msg ? `<p class="waiting-msg">${esc(msg)}</p>` : "");
    box.classList.remove("mine");
    if (!msg) box.hidden = true;
    return;
  }
  box.classList.toggle("mine", L.length > 0);
  setHTML(box, `<h2 class="sr-only">${esc(t("table.actions"))}</h2>${parts.join("")}`);
  lockPicks();
}

function renderPlayers() {
  const box = $("#players");
  if (!S.view) { setItemsHTML(box, []); return; }
  const discards = new Set(S.legal.filter((a) => a.startsWith("discard ")).map((a) => a.slice(8)));
  const n = S.view.players.length;
  // My display first, then the others in seating order after me.
  const order = [];
  const start = S.seat ?? 0;
  for (let k = 0; k < n; k++) order.push((start + k) % n);
  box.className = `players n${n}`;
  setItemsHTML(box, order.map((seat) => {
    const s = S.game && S.game.seats ? S.game.seats[seat] : null;
    return renderPlayer(S.view, seat, {
      me: S.seat, edition: edition(), kind: s ? s.kind : "human", connected: !S.connected ? false : s ? s.connected : null,
      away: Boolean(s && s.away), forfeited: Boolean(s && s.forfeited), account: Boolean(s && s.account),
      thinking: S.connected && s && s.kind === "bot" && S.view.phase !== "over" && S.view.to_move === seat,
      discards: seat === S.seat ? discards : new Set(),
      fresh: S.fresh && S.fresh.tiles[seat], lost: S.fresh && S.fresh.lost[seat], flash: S.fresh && S.fresh.flash.has(seat),
    });
  }));
}

function renderLogArea() {
  const box = $("#log");
  if (!S.view) { setItemsHTML(box, []); return; }
  if (setItemsHTML(box, renderLog(S.events, names(S.view), S.seat))) scrollToEnd(box);
  setHTML($("#scoring"), renderScoring(S.events, S.view));
}

function renderLinks() {
  const box = $("#links-card");
  // An invitation only where a seat is free; a running table offers a link to watch; a finished
  // one (its replay is linked from the result) none.
  if (!S.game || S.game.status === "finished") { setHTML(box, ""); box.hidden = true; return; }
  box.hidden = false;
  const free = S.game.seats.some((x) => x.kind === "human" && !x.taken);
  const title = free ? t("table.shareLink") : t("table.watchLink");
  const mine = getSeat(gameId);
  let html = `<div class="share"><input class="share-input" readonly value="${esc(absLink(`/g/${gameId}`))}" aria-label="${esc(title)}"><button type="button" class="btn small" id="copy-share">${esc(t("lobby.copy"))}</button></div>`;
  if (mine && S.game.status === "running") html += notifyControl();
  if (mine) {
    const seatLink = absLink(`/g/${gameId}?seat=${mine.seat}&token=${encodeURIComponent(mine.token)}`);
    html += `<details class="seat-link"><summary>${esc(t("table.seatLink"))}</summary><div class="share"><input class="share-input" readonly value="${esc(seatLink)}"><button type="button" class="btn small" id="copy-seat">${esc(t("lobby.copy"))}</button></div></details>`;
  }
  // Written again only when it changed: a seat link opened stays open through the moves.
  if (!setHTML(box, `<h2>${esc(title)}</h2>${html}`)) return;
  wireNotify(box, renderLinks);
  $("#copy-share", box).addEventListener("click", async () => { if (await copyText(absLink(`/g/${gameId}`))) toast(t("lobby.copied"), "ok"); });
  const cs = $("#copy-seat", box);
  if (cs) cs.addEventListener("click", async () => { if (await copyText($("input", cs.parentElement).value)) toast(t("lobby.copied"), "ok"); });
}

// ---- input -------------------------------------------------------------------

document.addEventListener("click", (e) => {
  const b = e.target.closest("[data-act]");
  if (b && !b.disabled) { act(b.dataset.act); return; }
  const u = e.target.closest("[data-undo]");
  if (u && !u.disabled) undo();
  const h = e.target.closest("[data-hint]");
  if (h && !h.disabled) askHint();
});

function flushDigits() {
  clearTimeout(S.digitTimer);
  const buf = S.digitBuf;
  S.digitBuf = "";
  if (buf && S.legal.includes(`bid ${Number(buf)}`)) act(`bid ${Number(buf)}`);
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || "").toLowerCase();
  if (tag === "input" || tag === "textarea" || tag === "select") return;
  if ($("#help-dlg").open && e.key !== "?") return;
  const k = e.key;
  if (k === "?") { e.preventDefault(); const d = $("#help-dlg"); if (d.open) d.close(); else d.showModal(); return; }
  if (k === "d") return act("draw");
  if (k === "r") return act("ra");
  if (k === "p") return act("pass");
  if (k === "n") return act("done");
  if (k === "u") return undo();
  if (k === "h") return askHint();
  if (/^[0-9]$/.test(k)) {
    const bids = S.legal.filter((a) => a.startsWith("bid ")).map((a) => a.slice(4));
    if (!bids.length) return undefined;
    S.digitBuf += k;
    clearTimeout(S.digitTimer);
    const buf = S.digitBuf;
    const longer = bids.some((b) => b.length > buf.length && b.startsWith(buf));
    if (!longer || buf.length >= 2) flushDigits();
    else S.digitTimer = setTimeout(flushDigits, 900);
  }
  return undefined;
});

// ---- start ---------------------------------------------------------------------

mountTop();
mountChat(send, () => S.seat);
if (!gameId) {
  $("#status").textContent = t("table.notFound");
} else {
  document.title = `${t("app.title")} — ${gameId}`;
  connect();
}
window.__ra = S; // for tests and debugging
