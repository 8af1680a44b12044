// An event's page (issue 55): its settings, standings and each round's tables with links to their
// games; a player's own games (click their name); a finished event's crosstable and files; and
// the buttons its reader may use (join, withdraw; the organiser's start, cancel, remove a player,
// and the invitation link to copy). The page stays live over its socket (/ws/e/{id}): the server
// pushes the event whenever it changes (a player joins or leaves, a round is formed, a game ends,
// it starts or ends); while that socket is down it asks GET /api/events/{id} every 30 seconds.
import { t, has, currentLang } from "./i18n.js";
import { $, esc, mountHeader, account, toast, gameIdFromPath } from "./common.js";

const FALLBACK_MS = 30000;  // the poll while the socket is down
const eventId = gameIdFromPath("e");
// An invitation link carries its token in the fragment (#invite=…): no request, access log or
// Referer carries it (a link with ?invite=, from before, still works).
// Read when needed: a link opened in the same tab changes only the fragment (no new page load).
function invite() {
  return new URLSearchParams(location.hash.slice(1)).get("invite") || new URLSearchParams(location.search).get("invite");
}
const base = `/api/events/${encodeURIComponent(eventId)}`;
let event = null;
let me = null;
let chosen = null;  // the player whose games are shown
let cross = null;   // a finished event's crosstable

function nameOf(id) {
  const p = event.players.find((x) => x.account === id);
  return id === null ? t("event.bot") : p ? p.name : "?";
}

function organiser() { return me && event.organiser === me.name; }
function live() { return event.status === "open" || event.status === "running"; }

function aboutHtml() {
  const lang = currentLang();
  const kind = t(`event.kind.${event.kind}`);
  const rounds = event.kind === "arena"
    ? t("event.about_arena", { kind, size: event.table_size, minutes: event.minutes })
    : t("event.about", { kind, size: event.table_size, rounds: event.rounds });
  const s = event.move_seconds;
  const clock = s === null ? t("event.clock.none")
    : s % 86400 === 0 ? t("event.clock.days", { n: s / 86400 }) : t("event.clock.seconds", { n: s });
  const when = event.starts_at ? new Date(event.starts_at).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }) : "";
  const parts = [rounds, clock, t(event.rated ? "event.rated" : "event.casual"), t("event.organiser", { name: event.organiser })];
  if (event.by_invitation) parts.push(t("event.byInvitation"));
  return `<div class="event-about"><p>${parts.map(esc).join(" · ")}</p>` +
    `<p><strong>${esc(t(`event.status.${event.status}`))}</strong>${when ? ` · ${esc(t("event.starts", { when }))}` : ""}</p></div>`;
}

function inviteHtml() {
  const token = invite();
  if (!event.by_invitation || !token || !organiser() || !live()) return "";
  const link = `${location.origin}/e/${encodeURIComponent(eventId)}#invite=${encodeURIComponent(token)}`;
  return `<section class="card"><h2>${esc(t("event.invite"))}</h2><p class="muted">${esc(t("event.inviteHelp"))}</p>` +
    `<p class="event-invite"><input id="invite-link" readonly value="${esc(link)}" aria-label="${esc(t("event.invite"))}">` +
    `<button type="button" class="btn small" data-act="copy">${esc(t("event.copy"))}</button></p></section>`;
}

function standingLine(s) {
  const p = event.players.find((x) => x.account === s.player) || {};
  const note = p.removed ? t("event.removed") : p.withdrawn ? t("event.withdrawn") : "";
  const remove = organiser() && live() && !p.withdrawn
    ? `<button type="button" class="btn small bad" data-remove="${esc(s.player)}">${esc(t("event.remove"))}</button>` : "";
  const name = `<button type="button" class="player-btn" data-player="${esc(s.player)}" aria-expanded="${chosen === s.player}">${esc(s.name)}</button>`;
  return `<tr><td>${s.rank}</td><th scope="row">${name}${note ? ` <span class="withdrawn">${esc(note)}</span>` : ""}</th>` +
    `<td>${esc(s.points)}</td>${organiser() && live() ? `<td>${remove}</td>` : ""}</tr>`;
}

function standingsHtml() {
  if (!event.standings.length) return `<section class="card"><h2>${esc(t("event.standings"))}</h2><p class="muted">${esc(t("event.noPlayers"))}</p></section>`;
  const extra = organiser() && live() ? `<th scope="col"><span class="sr-only">${esc(t("event.actions"))}</span></th>` : "";
  return `<section class="card"><h2>${esc(t("event.standings"))}</h2><p class="muted">${esc(t("event.clickPlayer"))}</p>` +
    `<div class="table-scroll"><table class="results">` +
    `<thead><tr><th scope="col">#</th><th scope="col">${esc(t("event.player"))}</th><th scope="col">${esc(t("event.points"))}</th>${extra}</tr></thead>` +
    `<tbody>${event.standings.map(standingLine).join("")}</tbody></table></div></section>`;
}

function tableItem(x) {
  const names = esc(x.players.map(nameOf).join(", "));
  if (x.players.length === 1) return `<li>${esc(t("event.round", { n: x.round }))}: ${names} — ${esc(t("event.bye"))}</li>`;
  const link = x.game ? ` — <a href="/g/${encodeURIComponent(x.game)}">${esc(t("event.open"))}</a>` : "";
  return `<li>${esc(t("event.round", { n: x.round }))}, ${esc(t("event.table", { n: x.table }))}: ${names}${link}</li>`;
}

function playerHtml() {
  if (!chosen) return "";
  const name = nameOf(chosen);
  const mine = event.tables.filter((x) => x.players.includes(chosen));
  const list = mine.length ? `<ul>${mine.map(tableItem).join("")}</ul>` : `<p class="muted">${esc(t("event.noGames"))}</p>`;
  return `<section class="card" id="player-games"><h2>${esc(t("event.gamesOf", { name }))}</h2>${list}` +
    `<p><a href="/u/${encodeURIComponent(name)}">${esc(t("event.profile", { name }))}</a></p></section>`;
}

function roundsHtml() {
  if (!event.tables.length) return `<section class="card"><p class="muted">${esc(t("event.none"))}</p></section>`;
  const rounds = [...new Set(event.tables.map((x) => x.round))];
  return rounds.map((r) => {
    const items = event.tables.filter((x) => x.round === r).map((x) => {
      const names = esc(x.players.map(nameOf).join(", "));
      if (x.players.length === 1) return `<li>${names} — ${esc(t("event.bye"))}</li>`;
      const link = x.game ? ` — <a href="/g/${encodeURIComponent(x.game)}">${esc(t("event.open"))}</a>` : "";
      return `<li>${esc(t("event.table", { n: x.table }))}: ${names}${link}</li>`;
    }).join("");
    return `<section class="card"><h2>${esc(t("event.round", { n: r }))}</h2><ul>${items}</ul></section>`;
  }).join("");
}

function cellHtml(c) {
  if (!c) return `<td>—</td>`;
  if (c.bye) return `<td>${esc(t("event.cellBye", { points: c.points }))}</td>`;
  const text = esc(t("event.cell", { place: c.place, of: c.of, points: c.points }));
  return `<td><a href="/g/${encodeURIComponent(c.game)}">${text}</a></td>`;
}

function crosstableHtml() {
  if (event.status !== "finished" || !cross) return "";
  const heads = Array.from({ length: cross.rounds }, (_, i) => `<th scope="col">${esc(t("event.roundShort", { n: i + 1 }))}</th>`).join("");
  const rows = cross.lines.map((l) => `<tr><td>${l.rank}</td><th scope="row">${esc(l.name)}</th><td>${esc(l.points)}</td>${l.cells.map(cellHtml).join("")}</tr>`).join("");
  return `<section class="card" id="crosstable"><h2>${esc(t("event.crosstable"))}</h2><p class="muted">${esc(t("event.crosstableHelp"))}</p>` +
    `<div class="table-scroll"><table class="results crosstable"><thead><tr><th scope="col">#</th><th scope="col">${esc(t("event.player"))}</th>` +
    `<th scope="col">${esc(t("event.points"))}</th>${heads}</tr></thead><tbody>${rows}</tbody></table></div>` +
    `<p class="event-files"><a href="${base}/crosstable.csv" download>${esc(t("event.downloadCsv"))}</a>` +
    `<a href="${base}/records.jsonl" download>${esc(t("event.downloadRecords"))}</a></p></section>`;
}

function buttonsHtml() {
  if (!live()) return "";
  if (!me) return `<p class="muted">${esc(t("event.signIn"))} <a href="/account">${esc(t("eventNew.signInLink"))}</a></p>`;
  const mine = event.players.find((p) => p.name === me.name && !p.withdrawn);
  const b = (act, key, cls = "") => `<button type="button" class="btn${cls}" data-act="${act}">${esc(t(key))}</button>`;
  let html = mine ? b("withdraw", "event.withdraw") : b("join", "event.join", " primary");
  if (organiser()) {
    if (event.status === "open") html += b("start", "event.start");
    html += b("cancel", "event.cancel", " bad");
  }
  return `<p class="event-actions">${html}</p>`;
}

function render() {
  const box = $("#event");
  if (!event) { box.innerHTML = `<p>${esc(t("table.loading"))}</p>`; return; }
  document.title = `${t("app.title")} — ${event.name}`;
  box.innerHTML = `<h1>${esc(event.name)}</h1>` + aboutHtml() + buttonsHtml() + inviteHtml() +
    crosstableHtml() + standingsHtml() + playerHtml() + roundsHtml();
  box.querySelectorAll("button[data-act]").forEach((x) => x.addEventListener("click", () => act(x.dataset.act)));
  box.querySelectorAll("button[data-remove]").forEach((x) => x.addEventListener("click", () => remove(x.dataset.remove)));
  box.querySelectorAll("button[data-player]").forEach((x) => x.addEventListener("click", () => choose(x.dataset.player)));
}

function choose(player) {
  chosen = chosen === player ? null : player;
  render();
  const back = $(`button[data-player="${CSS.escape(player)}"]`);
  if (back) back.focus();
}

async function copyInvite() {
  const input = $("#invite-link");
  try { await navigator.clipboard.writeText(input.value); toast(t("event.copied")); } catch (e) { input.select(); }
}

// A change the reader asks for, with the page's CSRF token; a refusal is said in the page's
// language when the catalogue has the server's code (err.<code>).
async function post(path, body = {}) {
  const res = await fetch(`${base}/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
    body: JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (res.ok) event = data;
  else toast(has(`err.${data.error}`) ? t(`err.${data.error}`) : data.message || `HTTP ${res.status}`, "error");
  render();
}

async function act(what) {
  if (what === "copy") return copyInvite();
  if (what === "cancel" && !confirm(t("event.cancelConfirm"))) return;
  await post(what, what === "join" ? { invite: invite() } : {});
}

async function remove(player) {
  if (!confirm(t("event.removeConfirm", { name: nameOf(player) }))) return;
  await post(`players/${encodeURIComponent(player)}/remove`);
}

// Drawn again only when the event has changed: a poll that finds nothing new leaves the page (and
// the reader's focus, a half-read list) alone.
let seen = "";
let missing = false;
let socketUp = false;
let retry = 1000;

async function show(data) {
  const now = JSON.stringify(data);
  if (now === seen) return;
  seen = now;
  event = data;
  if (event.status === "finished" && !cross) {
    const got = await fetch(`${base}/crosstable`).catch(() => null);
    if (got && got.ok) cross = await got.json();
  }
  render();
}

async function load() {
  try {
    const res = await fetch(base);
    if (res.status === 404) { missing = true; $("#event").innerHTML = `<p>${esc(t("event.missing"))}</p>`; return; }
    if (res.ok) await show(await res.json());
  } catch (e) { /* the next poll tries again */ }
}

// The fallback: ask again only while the socket is down and the event can still change.
function poll() {
  if (missing || (event && !live())) return;
  if (!socketUp) load();
  setTimeout(poll, FALLBACK_MS);
}

function follow() {
  let ws;
  try { ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/e/${encodeURIComponent(eventId)}`); } catch (e) { return; }
  ws.addEventListener("message", (e) => {
    let m = null;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    if (!m || m.type !== "event") return;
    socketUp = true;
    retry = 1000;
    show(m.event);
  });
  ws.addEventListener("close", () => {
    if (socketUp) load();  // what changed while it reconnects
    socketUp = false;
    if (missing || (event && !live())) return;
    setTimeout(follow, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

mountHeader(render);
render();
me = await account();
await load();
follow();
setTimeout(poll, FALLBACK_MS);
