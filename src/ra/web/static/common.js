// Shared helpers of every page: the top bar, the language switch, the HTTP API,
// seat tokens in localStorage, toasts.
import { t, has, currentLang, setLang, applyI18n, playerName, LANGS, LANG_NAMES } from "./i18n.js";
import { esc } from "./tiles.js";

export { esc };

export function $(sel, root = document) { return root.querySelector(sel); }
export function $$(sel, root = document) { return [...root.querySelectorAll(sel)]; }

// An element's content, written only when it changed (true then): a page that redraws on every
// message leaves what it already shows alone (no parse, no layout). Only for elements that no
// other code writes into: what was written is remembered here, not read back from the page.
const written = new WeakMap();
export function shows(el, html) { return written.get(el) === html; }
export function setHTML(el, html) {
  if (shows(el, html)) return false;
  el.innerHTML = html;
  written.set(el, html);
  return true;
}

// A list whose items are the element's children, one element each, written item by item: an item
// is written only when it changed, new items at the end are added, items past the end removed (a
// table's players: a move changes one display; a log: a move adds its lines, the rest stay laid
// out and scrolled). True when anything was written. Only for elements no other code writes into.
const itemsWritten = new WeakMap();
export function setItemsHTML(el, items) {
  const before = itemsWritten.get(el);
  itemsWritten.set(el, items);
  if (!before || el.children.length !== before.length) {
    el.innerHTML = items.join("");
    return true;
  }
  const kept = Math.min(before.length, items.length);
  let changed = false;
  for (let i = 0; i < kept; i++) {
    if (before[i] !== items[i]) { el.children[i].outerHTML = items[i]; changed = true; }
  }
  for (let i = before.length - 1; i >= items.length; i--) { el.children[i].remove(); changed = true; }
  if (items.length > kept) { el.insertAdjacentHTML("beforeend", items.slice(kept).join("")); changed = true; }
  return changed;
}

// An element's text, written only when it changed (writing the same text lays the page out again).
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

// An element scrolled to its end once a frame, when the page is laid out anyway: reading its height
// in the middle of drawing (a log after a move) lays the whole page out then, and again once the
// rest is drawn.
const scrolling = new WeakSet();
export function scrollToEnd(el) {
  if (scrolling.has(el)) return;
  scrolling.add(el);
  requestAnimationFrame(() => {
    scrolling.delete(el);
    el.scrollTop = el.scrollHeight;
  });
}

// The site's links, the same in every page's top bar (issue 54: they differed from page to page).
const SITE_LINKS = [
  ["/", "nav.lobby", "nav-lobby"], ["/players", "nav.leaders", "nav-leaders"],
  ["/rules", "nav.rules", "nav-rules"], ["/account", "nav.account", "nav-account"],
];

// Whether this browser may be signed in (the server marks a page asked for with a session
// cookie): a guest's page asks nothing of the account, so logs no 401.
export function maybeSignedIn() { return document.documentElement.dataset.account === "1"; }

/** The signed-in account (``/api/account``), or null for a guest. */
export async function account() {
  if (!maybeSignedIn()) return null;
  try {
    const res = await fetch("/api/account");
    return res.ok ? await res.json() : null;
  } catch (e) { return null; }
}

// The link that skips the header to the page's content (the first Tab of every page).
function mountSkipLink() {
  const main = document.querySelector("main");
  if (!main || document.querySelector(".skip-link")) return;
  if (!main.id) main.id = "main";
  if (!main.hasAttribute("tabindex")) main.tabIndex = -1;
  const a = document.createElement("a");
  a.className = "skip-link";
  a.href = `#${main.id}`;
  a.dataset.i18n = "nav.skip";
  document.body.prepend(a);
}

// The top bar with brand, the site's links, the page's own buttons (``extra``) and the language
// switch. onLang re-renders the page.
export function mountHeader(onLang, extra = "") {
  const header = document.createElement("header");
  header.className = "topbar";
  const lang = currentLang();
  const here = location.pathname;
  const links = SITE_LINKS.map(([href, key, cls]) => `<a href="${href}" class="${cls}" data-i18n="${key}"${href === here ? ' aria-current="page"' : ""}></a>`).join("");
  header.innerHTML =
    `<a class="brand" href="/"><span class="brand-sun" aria-hidden="true"></span><span data-i18n="app.title"></span></a>` +
    `<nav class="topnav" aria-label="${esc(t("nav.site"))}">${links}${extra}` +
    `<span class="lang-switch" role="group" data-i18n-aria="nav.lang">` +
    LANGS.map((l) => `<button type="button" class="lang-btn${l === lang ? " on" : ""}" data-lang="${l}" aria-pressed="${l === lang}" title="${esc(LANG_NAMES[l])}" lang="${l}">${l.toUpperCase()}</button>`).join("") +
    `</span></nav>`;
  // A page that still names a site link of its own in ``extra`` shows it once.
  const seen = new Set();
  header.querySelectorAll(".topnav > a[href]").forEach((a) => {
    if (seen.has(a.getAttribute("href"))) a.remove();
    seen.add(a.getAttribute("href"));
  });
  document.body.prepend(header);
  mountSkipLink();
  header.querySelectorAll(".lang-btn").forEach((b) => b.addEventListener("click", async () => {
    try { await setLang(b.dataset.lang); } catch (e) { return; }
    header.querySelectorAll(".lang-btn").forEach((x) => {
      x.classList.toggle("on", x.dataset.lang === b.dataset.lang);
      x.setAttribute("aria-pressed", String(x.dataset.lang === b.dataset.lang));
    });
    applyI18n();
    if (onLang) onLang();
  }));
  applyI18n();
  // The page is in its language and its script runs: the catalogue arrives before any page code
  // (i18n.js awaits it), so anything typed before this moment may be reset by the page.
  document.documentElement.dataset.ready = "true";
  return header;
}

export async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    // The server's words are English: a page in another language says the code's own words.
    const key = data && data.error ? `err.${data.error}` : null;
    const own = key && currentLang() !== "en" && has(key) ? t(key) : null;
    const err = new Error(own || (data && (data.message || data.error)) || `HTTP ${res.status}`);
    err.status = res.status;
    err.code = data && data.error;
    throw err;
  }
  return data;
}

// ---- seats kept in this browser -------------------------------------------

const SEATS_KEY = "ra.seats";

export function allSeats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}") || {}; } catch (e) { return {}; }
}
export function getSeat(gameId) { return allSeats()[gameId] || null; }
/** Keep a seat in this browser (and in the account, when signed in: await it before leaving the page). */
export function saveSeat(gameId, seat, token, name) {
  const all = allSeats();
  all[gameId] = { seat: Number(seat), token, name: name || null, saved: Date.now() };
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch (e) { /* ignore */ }
  return joinAccount(gameId, token);
}

// A seat taken while signed in joins the account (a guest's seats join it on signing up).
async function joinAccount(game, token) {
  try {
    const me = await account();
    if (!me) return;
    const { csrf } = me;
    await fetch("/api/account/claim", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ seats: [{ game, token: String(token) }] }),
    });
  } catch (e) { /* offline: the account page claims this browser's seats at the next sign-in */ }
}
export function forgetSeat(gameId) {
  const all = allSeats();
  delete all[gameId];
  try { localStorage.setItem(SEATS_KEY, JSON.stringify(all)); } catch (e) { /* ignore */ }
}
export function savedName() {
  try { return localStorage.getItem("ra.name") || ""; } catch (e) { return ""; }
}
export function saveName(name) {
  try { localStorage.setItem("ra.name", name); } catch (e) { /* ignore */ }
}

export function absLink(path) { return new URL(path, location.origin).href; }

export function gameIdFromPath(prefix) {
  const parts = location.pathname.split("/").filter(Boolean);
  const i = parts.indexOf(prefix);
  if (i >= 0 && parts[i + 1]) return decodeURIComponent(parts[i + 1]);
  return new URLSearchParams(location.search).get("id");
}

// ---- toasts ------------------------------------------------------------------

export function toast(text, kind = "info", ms = 3500) {
  let box = $("#toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    box.setAttribute("aria-live", "polite");
    document.body.appendChild(box);
  }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = text;
  box.appendChild(el);
  setTimeout(() => el.remove(), ms);
  return el;
}

// A toast asking for something typed in `input` ("type your name first"): gone as soon as it is.
export function toastUntilTyped(text, input) {
  const el = toast(text, "bad");
  const typed = () => {
    if (!input.value.trim()) return;
    el.remove();
    input.removeEventListener("input", typed);
  };
  input.addEventListener("input", typed);
  return el;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (e) {
    const ta = document.createElement("textarea");
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
    ta.remove();
    return ok;
  }
}

// Dates as the browser's own locale writes them (en-US: 11/23/26; en-GB: 23/11/2026) when it
// speaks the page's language; otherwise as that language usually does.
export function dateLocale() {
  const lang = currentLang();
  const own = (navigator.languages || [navigator.language]).find((l) => l && l.toLowerCase().split("-")[0] === lang);
  return own || lang;
}

export function fmtDate(iso) {
  try {
    return new Intl.DateTimeFormat(dateLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch (e) { return iso; }
}

// Another seat of a game as a page names it (the profile's opponents): a person by name, a free
// seat as free, a bot by its level's words from the catalogue ("Hard bot", "Hard bot 2").
export function seatName(o) {
  if (o.kind !== "bot") return o.name || t("account.freeSeat");
  const n = /\s(\d+)$/.exec(o.name || "");
  return has(`bot.${o.level}`) ? t(`bot.${o.level}`) + (n ? ` ${n[1]}` : "") : playerName(o.name);
}

export { t };
