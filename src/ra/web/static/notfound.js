// The page for an address the server does not know, in the page's language.
import { t } from "./i18n.js";
import { esc } from "./tiles.js";
import { mountHeader } from "./common.js";

function render() {
  document.getElementById("notfound").innerHTML =
    `<section class="card"><h1>${esc(t("nf.title"))}</h1><p>${esc(t("nf.text"))}</p>` +
    `<p><a class="btn primary" href="/">${esc(t("nf.lobby"))}</a> <a class="btn" href="/rules">${esc(t("nf.rules"))}</a></p></section>`;
  document.title = t("nf.title");
}

mountHeader(render);
render();
