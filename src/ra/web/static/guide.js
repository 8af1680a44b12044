// The strategy guide (ra.guide, sent by /api/guide), in the page's language.
import { t, currentLang } from "./i18n.js";
import { esc } from "./tiles.js";
import { mountHeader } from "./common.js";

async function render() {
  const res = await fetch(`/api/guide?lang=${encodeURIComponent(currentLang())}`);
  const g = await res.json();
  document.getElementById("guide").innerHTML =
    `<h1>${esc(g.title)}</h1><div class="muted">${g.intro}</div>` +
    `<nav class="rules-toc card" aria-label="${esc(t("guide.title"))}">` +
    g.sections.map((s) => `<a href="#${s.anchor}">${esc(s.heading)}</a>`).join("") + `</nav>` +
    g.sections.map((s) => `<section class="card guide-section" id="${s.anchor}"><h2>${esc(s.heading)}</h2>${s.html}</section>`).join("");
  document.title = g.title;
  document.documentElement.lang = currentLang();
}

mountHeader(() => { render(); });
delete document.documentElement.dataset.ready;  // ready once the guide is shown
render().then(() => { document.documentElement.dataset.ready = "true"; });
