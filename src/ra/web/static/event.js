// An event's page (issue 55): its settings, standings and each round's tables with links to their
// games, and the buttons its reader may use (join, withdraw; the organiser's start and cancel).
// The page asks GET /api/events/{id} again every few seconds while the event is not over
// (polling: the standings change only when a game ends).
import { t, has } from "./i18n.js";
import { $, esc, mountHeader, account, toast, gameIdFromPath } from "./common.js";

const POLL_MS = 5000;
const eventId = gameIdFromPath("e");
const invite = new URLSearchParams(location.search).get("invite");
let event = null;
let me = null;

function nameOf(id) {
  const p = event.players.find((x) => x.account === id);
  return p ? p.name : "?";
}

function standingsHtml() {
  const rows = event.standings.map((s) =>
    `<tr><td>${s.rank}</td><th scope="row"><a href="/u/${encodeURIComponent(s.name)}">${esc(s.name)}</a></th><td>${esc(s.points)}</td></tr>`).join("");
  return `<section class="card"><h2>${esc(t("event.standings"))}</h2><div class="table-scroll"><table class="results">` +
    `<thead><tr><th scope="col">#</th><th scope="col">${esc(t("event.player"))}</th><th scope="col">${esc(t("event.points"))}</th></tr></thead>` +
    `<tbody>${rows}</tbody></table></div></section>`;
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

function buttonsHtml() {
  if (event.status !== "open" && event.status !== "running") return "";
  if (!me) return `<p class="muted">${esc(t("event.signIn"))}</p>`;
  const mine = event.players.find((p) => p.name === me.name && !p.withdrawn);
  const b = (act, key) => `<button type="button" data-act="${act}">${esc(t(key))}</button> `;
  let html = mine ? b("withdraw", "event.withdraw") : b("join", "event.join");
  if (event.organiser === me.name) {
    if (event.status === "open") html += b("start", "event.start");
    html += b("cancel", "event.cancel");
  }
  return `<p class="event-actions">${html}</p>`;
}

function render() {
  const box = $("#event");
  if (!event) { box.innerHTML = `<p>${esc(t("table.loading"))}</p>`; return; }
  document.title = `${t("app.title")} — ${event.name}`;
  const about = t("event.about", { kind: t(`event.kind.${event.kind}`), size: event.table_size, rounds: event.rounds });
  box.innerHTML = `<h1>${esc(event.name)}</h1><p>${esc(about)} · <strong>${esc(t(`event.status.${event.status}`))}</strong></p>` +
    buttonsHtml() + standingsHtml() + roundsHtml();
  box.querySelectorAll("button[data-act]").forEach((x) => x.addEventListener("click", () => act(x.dataset.act)));
}

// A change the reader asks for, with the page's CSRF token; a refusal is said in the page's
// language when the catalogue has the server's code (err.<code>).
async function act(what) {
  const res = await fetch(`/api/events/${encodeURIComponent(eventId)}/${what}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
    body: JSON.stringify(what === "join" ? { invite } : {}),
  });
  const data = await res.json().catch(() => ({}));
  if (res.ok) event = data;
  else toast(has(`err.${data.error}`) ? t(`err.${data.error}`) : data.message || `HTTP ${res.status}`, "error");
  render();
}

async function load() {
  try {
    const res = await fetch(`/api/events/${encodeURIComponent(eventId)}`);
    if (res.status === 404) { $("#event").innerHTML = `<p>${esc(t("event.missing"))}</p>`; return; }
    if (res.ok) event = await res.json();
  } catch (e) { /* the next poll tries again */ }
  render();
  if (!event || event.status === "open" || event.status === "running") setTimeout(load, POLL_MS);
}

mountHeader(render);
render();
me = await account();
load();
