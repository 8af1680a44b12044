// A player's public page: their games (to watch, or to replay once finished) and results.
import { t, join, fmtDecimal } from "./i18n.js";
import { $, esc, mountHeader, fmtDate, seatName } from "./common.js";

const name = decodeURIComponent(location.pathname.split("/")[2] || "");
let data = null;
let missing = false;
let rules = null;

function game(g) {
  const href = g.status === "finished" ? `/replay/${encodeURIComponent(g.id)}` : `/g/${encodeURIComponent(g.id)}`;
  const result = g.won === null ? t(`lobby.status.${g.status}`) : t(g.won ? "profile.won" : "profile.lost");
  const against = g.opponents && g.opponents.length ? t("account.against", { names: join(g.opponents.map(seatName)) }) : t("lobby.players", { n: g.players });
  return `<li class="game-item"><div class="gi-main"><div class="gi-title">${esc(against)} · ${esc(result)}</div>` +
    `<div class="gi-meta">#${esc(g.id)} · ${esc(t("lobby.players", { n: g.players }))} · ${esc(fmtDate(g.created))}</div></div><div class="gi-acts"><a class="btn small" href="${esc(href)}">${esc(t(g.status === "finished" ? "lobby.replay" : "lobby.spectate"))}</a></div></li>`;
}

function render() {
  const box = $("#profile");
  document.title = `${t("app.title")} — ${name}`;
  if (missing) { box.innerHTML = `<h1>${esc(name)}</h1><p>${esc(t("profile.none"))}</p>`; return; }
  if (!data) { box.innerHTML = `<p>${esc(t("table.loading"))}</p>`; return; }
  const rows = Object.entries(data.by_players).sort().map(([n, r]) =>
    `<tr><th scope="row">${esc(t("lobby.players", { n: Number(n) }))}</th><td>${r.played}</td><td>${r.won}</td></tr>`).join("");
  const r = data.rating;
  const shown = fmtDecimal(r.ordinal) + (r.provisional ? "?" : "");
  const rating = r.games ? t("profile.rating", { rating: shown, mu: fmtDecimal(r.mu), sigma: fmtDecimal(r.sigma), n: r.games }) : t("profile.unrated");
  // A provisional rating costs its owner a place on the leaderboard: say so here (ra.web.rating_policy).
  const why = r.provisional && rules ? `<p class="muted provisional-note">${esc(t("profile.provisional", { n: rules.provisional_games }))}</p>` : "";
  box.innerHTML = `<h1>${esc(data.name)}</h1><p class="muted">${esc(t("profile.since", { date: fmtDate(data.since) }))}</p>` +
    `<p class="profile-rating">${esc(rating)} · <a href="/players">${esc(t("leaders.title"))}</a></p>${why}` +
    `<section class="card"><h2>${esc(t("profile.results"))}</h2>` +
    (rows ? `<table class="results"><thead><tr><th scope="col">${esc(t("lobby.quickPlayers"))}</th><th scope="col">${esc(t("profile.played"))}</th><th scope="col">${esc(t("profile.wins"))}</th></tr></thead><tbody>${rows}</tbody></table>` : `<p class="muted">${esc(t("profile.noResults"))}</p>`) +
    `</section><section class="card"><h2>${esc(t("profile.games"))}</h2><ul class="game-list">${data.games.length ? data.games.map(game).join("") : `<li class="muted">${esc(t("lobby.none"))}</li>`}</ul></section>`;
}

mountHeader(render);
render();
try {
  const [res, how] = await Promise.all([
    fetch(`/api/players/${encodeURIComponent(name)}`),
    fetch("/api/ratings").then((x) => (x.ok ? x.json() : null)).catch(() => null),
  ]);
  rules = how;
  if (res.status === 404) missing = true; else data = await res.json();
} catch (e) { missing = true; }
render();
