// The browser's side of the one message catalogue (ra.words): this module loads the
// page language's catalogue and the tiles' facts from the server (this build's
// catalogue/<lang>.json, made from the gettext files in ra/locale) before any page
// renders, and offers t(key, params) and render(message) over it. Plural forms come
// from Intl.PluralRules through the catalogue's category table; lists are joined by
// the catalogue's own list patterns. No word and no tile fact lives in this file.

const STORE_KEY = "ra.lang";

function wantedLang() {
  try {
    const asked = new URLSearchParams(location.search).get("lang");
    if (asked) { localStorage.setItem(STORE_KEY, asked); return asked; }
  } catch (e) { /* private mode */ }
  let stored = null;
  try { stored = localStorage.getItem(STORE_KEY); } catch (e) { /* private mode */ }
  return stored || navigator.language || "en";
}

async function load(lang) {
  const url = new URL(`catalogue/${encodeURIComponent(lang)}.json`, import.meta.url);
  const r = await fetch(url);
  if (!r.ok) throw new Error(`catalogue ${lang}: HTTP ${r.status}`);
  return r.json();
}

let CAT = await load(wantedLang());
let RULES_PL = new Intl.PluralRules(CAT.lang);
const TILES = CAT.tiles;

export const LANGS = CAT.langs.map((l) => l.code);
export const LANG_NAMES = Object.fromEntries(CAT.langs.map((l) => [l.code, l.name]));
export const TILE_KINDS = TILES.kinds;
export const TILE_COUNTS = TILES.counts;
export const CIVS = TILES.civilizations;
export const MONUMENTS = TILES.monuments;
export const DISASTERS = TILES.disasters;
export const KEPT = new Set(TILES.kept);
export const SCORE_CATEGORIES = TILES.score_categories;
// The rules summary's sections and how many paragraphs each has (the words are messages).
export const SUMMARY = CAT.summary;

export function currentLang() { return CAT.lang; }

// A number with one decimal in the page's language ("-1.9", "-1,9"): every rating on every page
// (issue 54: the leaderboard said "-1.9" where the lobby said "(-1,9)").
export function fmtDecimal(x) {
  return new Intl.NumberFormat(CAT.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
}

// Load another language's catalogue; the caller re-renders.
export async function setLang(lang) {
  const next = await load(lang);
  CAT = next;
  RULES_PL = new Intl.PluralRules(CAT.lang);
  try { localStorage.setItem(STORE_KEY, CAT.lang); } catch (e) { /* ignore */ }
  document.documentElement.lang = CAT.lang;
}

function fill(text, params, names, you) {
  return text.replace(/\{(\w+)\}/g, (m, k) => {
    const v = params[k];
    return v === undefined || v === null ? m : param(v, names, you);
  });
}

function param(v, names, you) {
  if (Array.isArray(v)) return join(v.map((x) => param(x, names, you)));
  if (typeof v === "object") {
    if ("seat" in v) return names && names[v.seat] !== undefined ? names[v.seat] : t("player.numbered", { n: v.seat + 1 });
    return render(v, names, you);
  }
  return String(v);
}

function form(key, n) {
  const m = CAT.messages[key];
  if (m === undefined) return undefined;
  if (typeof m === "string") return m;
  const i = typeof n === "number" ? (CAT.plural[RULES_PL.select(n)] ?? m.length - 1) : 0;
  return m[Math.min(i, m.length - 1)];
}

export function has(key) { return CAT.messages[key] !== undefined; }

// A message by key; the parameter n (if any) chooses the plural form.
export function t(key, params = {}) {
  const s = form(key, params.n);
  return s === undefined ? key : fill(s, params, null, null);
}

// A message sent as data ({key, params}); seats become names, the seat `you` is addressed.
export function render(msg, names = null, you = null) {
  let key = msg.key;
  const p = msg.params || {};
  if (p.p && typeof p.p === "object" && p.p.seat === you && you !== null && has(key + ".you")) key += ".you";
  const s = form(key, p.n);
  return s === undefined ? key : fill(s, p, names, you);
}

// Parts joined as the language lists things ("a, b and c").
export function join(parts) {
  if (parts.length < 2) return parts.join("");
  let head = parts[0];
  for (const x of parts.slice(1, -1)) head = t("list.middle", { a: head, b: x });
  return t(parts.length > 2 ? "list.end" : "list.two", { a: head, b: parts[parts.length - 1] });
}

// Fill every [data-i18n] element under root.
export function applyI18n(root = document) {
  document.documentElement.lang = currentLang();
  root.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-i18n-ph]").forEach((el) => { el.placeholder = t(el.dataset.i18nPh); });
  root.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
  root.querySelectorAll("[data-i18n-aria]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAria)); });
}

// ---- tiles ---------------------------------------------------------------

export function tileCategory(kind) { return TILES.categories[kind] || kind; }

// R1.2 — the identifier of a tile's printed name in an edition ("unrest" is "war" in 2016).
function nameId(kind, edition) { return (TILES.editions[edition] || {})[kind] || kind; }

export function tileName(kind, edition = "original") { return t("tile." + nameId(kind, edition)); }

// Short labels printed on the tile art (they must fit a small tile).
export function tileShort(kind, edition = "original") {
  const id = nameId(kind, edition);
  return has("tile.short." + id) ? t("tile.short." + id) : tileName(kind, edition);
}

// What each tile does, for the tile reference and tooltips.
export function tileHelp(kind) {
  if (has("tilehelp." + kind)) return t("tilehelp." + kind);
  const cat = "tilehelp." + tileCategory(kind);
  return has(cat) ? t(cat) : "";
}

// Tiles counted by kind ("1 Pharaoh and 2 Floods").
export function tileList(tiles, edition) {
  if (!tiles || !tiles.length) return t("tiles.none");
  const counts = new Map();
  for (const k of tiles) counts.set(k, (counts.get(k) || 0) + 1);
  return join([...counts].sort((a, b) => TILE_KINDS.indexOf(a[0]) - TILE_KINDS.indexOf(b[0]))
    .map(([k, c]) => t("tiles." + nameId(k, edition), { n: c })));
}

// The server names bots in English, as ra.table.bot_label does ("Easy bot", "Hard bot 2",
// "Random bot": the table's bots, ra.table.TABLE_BOTS); show them in the page's language.
export function playerName(name) {
  if (name === null || name === undefined) return "?";
  const m = /^(Easy|Medium|Hard|Expert|Master|Random|Greedy) bot(?: (\d+))?$/.exec(name);
  if (!m) return name;
  return t("bot." + m[1].toLowerCase()) + (m[2] ? ` ${m[2]}` : "");
}

// ---- the game log in words: the server sends each event's message --------

export function eventText(ev, names, you = null) {
  return ev.msg ? render(ev.msg, names, you) : ev.kind;
}
