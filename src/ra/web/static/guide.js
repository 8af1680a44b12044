// The strategy guide (ra.guide, sent by /api/guide), in the page's language.
import { t, currentLang } from "./i18n.js";
import { esc } from "./tiles.js";
import { mountHeader } from "./common.js";
import { renderBoard, renderPlayer, names } from "./board.js";

// One position: the table's own board art and the advisor's numbers for the player to move. The
// figure is named by its caption (each position's own); its players are groups inside it, not
// landmarks, which every position would repeat ("Player 1").
function positionHtml(p) {
  const id = `position-${esc(p.name)}`;
  const rows = p.actions.map((a) => `<tr${a.best ? ' class="best"' : ""}><td>${esc(a.label)}${a.best ? ` <b>★ ${esc(t("guide.best"))}</b>` : ""}</td><td class="num">${Math.round(a.win * 100)}%</td></tr>`).join("");
  return `<figure class="guide-position" data-position="${esc(p.name)}" aria-labelledby="${id}">` +
    `<figcaption><span class="muted">${esc(t("guide.position", { name: names(p.view)[p.mover] }))}</span>` +
    `<span class="guide-caption" id="${id}">${esc(t(`guide.caption.${p.name}`))}</span></figcaption>` +
    `<div class="board-area">${renderBoard(p.view, {})}</div>` +
    `<div class="players">${p.view.players.map((_, i) => renderPlayer(p.view, i, { me: p.mover, group: true })).join("")}</div>` +
    `<table class="guide-numbers"><caption>${esc(t("guide.advisor"))}</caption>` +
    `<thead><tr><th>${esc(t("guide.action"))}</th><th>${esc(t("guide.win_chance"))}</th></tr></thead><tbody>${rows}</tbody></table></figure>`;
}

async function render() {
  const res = await fetch(`/api/guide?lang=${encodeURIComponent(currentLang())}`);
  const g = await res.json();
  document.getElementById("guide").innerHTML =
    `<h1>${esc(g.title)}</h1><div class="muted">${g.intro}</div>` +
    `<nav class="rules-toc card" aria-label="${esc(t("guide.title"))}">` +
    g.sections.map((s) => `<a href="#${s.anchor}">${esc(s.heading)}</a>`).join("") + `</nav>` +
    g.sections.map((s) => `<section class="card guide-section" id="${s.anchor}"><h2>${esc(s.heading)}</h2>${s.html}${s.positions.map(positionHtml).join("")}</section>`).join("");
  document.title = g.title;
  document.documentElement.lang = currentLang();
}

mountHeader(() => { render(); });
delete document.documentElement.dataset.ready;  // ready once the guide is shown
render().then(() => { document.documentElement.dataset.ready = "true"; });
