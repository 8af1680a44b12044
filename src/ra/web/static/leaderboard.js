// The leaderboard: accounts with rated games, by their conservative rating (mu - 3 sigma), and
// exactly which games are rated (the server's own rules: GET /api/ratings, ra.web.ratings).
import { t, join, currentLang, fmtDecimal } from "./i18n.js";
import { $, esc, mountHeader } from "./common.js";

let players = null;
let rules = null;

const number = fmtDecimal;

// A length of time in the page's language, in its largest whole unit ("3 days", "3 дня", "3 Tage").
function duration(seconds) {
  const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  const [unit, size] = units.find(([, s]) => seconds >= s && seconds % s === 0) || units[units.length - 1];
  return new Intl.NumberFormat(currentLang(), { style: "unit", unit, unitDisplay: "long" }).format(Math.round(seconds / size));
}

// What is rated, point by point, from the server's rules.
function rated() {
  if (!rules) return "";
  const levels = join(rules.levels.map((l) => `${t(`lobby.level.${l.level}`)} ${number(l.rating)}`));
  const items = [
    t("leaders.rated.table"),
    t("leaders.rated.people"),
    t("leaders.rated.bots", { levels }),
    t("leaders.rated.order"),
    t("leaders.rated.standIn", { n: rules.stand_in_decisions }),
    t("leaders.rated.abort", { n: rules.min_own_decisions }),
    t("leaders.rated.provisional", { n: rules.provisional_games }),
    t("leaders.rated.deadline", { time: duration(rules.move_deadline) }),
    t("leaders.rated.not"),
  ];
  return `<section class="card rated-rules" id="rated-rules"><h2>${esc(t("leaders.rated.title"))}</h2><ul>` +
    items.map((x) => `<li>${esc(x)}</li>`).join("") + `</ul></section>`;
}

function render() {
  const box = $("#leaderboard");
  document.title = `${t("app.title")} — ${t("leaders.title")}`;
  const rows = (players || []).map((p, i) =>
    `<tr><td>${i + 1}</td><th scope="row"><a href="/u/${encodeURIComponent(p.name)}">${esc(p.name)}</a></th>` +
    `<td>${number(p.rating.ordinal)}</td><td class="mu">${number(p.rating.mu)} ± ${number(p.rating.sigma)}</td><td>${p.rating.games}</td></tr>`).join("");
  box.innerHTML = `<h1>${esc(t("leaders.title"))}</h1><p class="muted">${esc(t("leaders.help"))}</p><section class="card">` +
    (players === null ? `<p>${esc(t("table.loading"))}</p>` : rows ?
      `<div class="table-scroll"><table class="results leaders"><thead><tr><th scope="col">#</th><th scope="col">${esc(t("leaders.player"))}</th><th scope="col">${esc(t("leaders.rating"))}</th><th scope="col" class="mu">μ ± σ</th><th scope="col">${esc(t("leaders.games"))}</th></tr></thead><tbody>${rows}</tbody></table></div>` :
      `<p class="muted">${esc(t("leaders.none", { n: rules ? rules.provisional_games : "?" }))}</p>`) + `</section>` + rated();
}

mountHeader(render);
render();
const [board, how] = await Promise.all([
  fetch("/api/leaderboard").then((r) => r.json()).catch(() => ({ players: [] })),
  fetch("/api/ratings").then((r) => (r.ok ? r.json() : null)).catch(() => null),
]);
players = board.players || [];
rules = how;
render();
