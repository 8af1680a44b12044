// The leaderboard: accounts with rated games, by their conservative rating (mu - 3 sigma).
import { t } from "./i18n.js";
import { $, esc, mountHeader } from "./common.js";

let players = null;

function render() {
  const box = $("#leaderboard");
  document.title = `${t("app.title")} — ${t("leaders.title")}`;
  const rows = (players || []).map((p, i) =>
    `<tr><td>${i + 1}</td><th scope="row"><a href="/u/${encodeURIComponent(p.name)}">${esc(p.name)}</a></th>` +
    `<td>${p.rating.ordinal.toFixed(1)}</td><td>${p.rating.mu.toFixed(1)} ± ${p.rating.sigma.toFixed(1)}</td><td>${p.rating.games}</td></tr>`).join("");
  box.innerHTML = `<h1>${esc(t("leaders.title"))}</h1><p class="muted">${esc(t("leaders.help"))}</p><section class="card">` +
    (players === null ? `<p>${esc(t("table.loading"))}</p>` : rows ?
      `<table class="results"><thead><tr><th scope="col">#</th><th scope="col">${esc(t("leaders.player"))}</th><th scope="col">${esc(t("leaders.rating"))}</th><th scope="col">μ ± σ</th><th scope="col">${esc(t("leaders.games"))}</th></tr></thead><tbody>${rows}</tbody></table>` :
      `<p class="muted">${esc(t("leaders.none"))}</p>`) + `</section>`;
}

mountHeader(render, `<a href="/account" data-i18n="nav.account"></a>`);
render();
try { players = (await (await fetch("/api/leaderboard")).json()).players; } catch (e) { players = []; }
render();
