// The page for an address the server does not know — or for a game, replay or player that does
// not exist (the server answers 404 with this page) — in the page's language.
import { t } from "./i18n.js";
import { esc } from "./tiles.js";
import { mountHeader } from "./common.js";

// What the address named: a game (its table or replay), a player, or nothing the site has.
function words() {
  const p = location.pathname;
  if (/^\/(g|replay)\/[^/]+\/?$/.test(p)) return [t("nf.noGame"), t("nf.gameText")];
  if (/^\/u\/[^/]+\/?$/.test(p)) return [t("nf.noPlayer"), t("nf.playerText")];
  return [t("nf.title"), t("nf.text")];
}

function render() {
  const [title, text] = words();
  document.getElementById("notfound").innerHTML =
    `<section class="card"><h1>${esc(title)}</h1><p>${esc(text)}</p>` +
    `<p><a class="btn primary" href="/">${esc(t("nf.lobby"))}</a> <a class="btn" href="/rules">${esc(t("nf.rules"))}</a></p></section>`;
  document.title = `${title} — Ra`;
}

mountHeader(render);
render();
