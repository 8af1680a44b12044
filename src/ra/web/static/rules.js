// Rules summary and tile reference, in the page's language.
import { t, SUMMARY, TILE_KINDS, TILE_COUNTS, KEPT, tileName, tileHelp, tileCategory } from "./i18n.js";
import { tileSVG, esc } from "./tiles.js";
import { mountHeader } from "./common.js";

function render() {
  const secs = SUMMARY.map(([sec, n]) => [sec, t(`summary.${sec}`), Array.from({ length: n }, (_, i) => t(`summary.${sec}.${i + 1}`))]);
  const ref = TILE_KINDS.map((k) => {
    const ns = [...new Set(["original", "2016", "2023"].map((ed) => tileName(k, ed)))].join(" · ");
    return `<div class="tile-ref-item" id="tile-${k}">${tileSVG(k)}<div><div class="names">${esc(ns)}</div>` +
      `<div class="meta">${esc(t("cat." + tileCategory(k)))} · ${esc(t("rules.tileCount"))}: ${TILE_COUNTS[k]}${KEPT.has(k) ? ` · ${esc(t("rules.kept"))}` : ""}</div>` +
      `<p>${esc(tileHelp(k))}</p></div></div>`;
  }).join("");
  document.getElementById("rules").innerHTML =
    `<h1>${esc(t("rules.title"))}</h1><p class="muted">${esc(t("rules.intro"))} <a id="guide-link" href="/guide">${esc(t("guide.link"))}</a></p>` +
    `<nav class="rules-toc card" aria-label="${esc(t("rules.contents"))}">${secs.map(([sec, title]) => `<a href="#${sec}"><b>${sec}</b> ${esc(title)}</a>`).join("")}` +
    `<a href="#keys">${esc(t("rules.keys"))}</a><a href="#tiles">${esc(t("rules.tiles"))}</a></nav>` +
    secs.map(([sec, title, items]) => `<section class="card" id="${sec}"><h2><span class="sec">${sec}</span> ${esc(title)}</h2><ul>${items.map((x) => `<li>${esc(x)}</li>`).join("")}</ul></section>`).join("") +
    `<section class="card" id="keys"><h2>${esc(t("rules.keys"))}</h2><p>${esc(t("help.keys"))}</p><p>${esc(t("help.clicks"))}</p></section>` +
    `<section class="card" id="tiles"><h2>${esc(t("rules.tiles"))}</h2><p class="muted">${esc(t("rules.tileNames"))}</p><div class="tile-ref">${ref}</div></section>`;
  document.title = `${t("rules.title")}`;
}

mountHeader(render);
render();
