// Chat: at a table the players talk among themselves, the spectators among themselves (the
// server keeps the two apart); the lobby has its own. Lines are text, never HTML; muting a person is this browser's
// own business (kept in localStorage by name); a report goes to the server's admin.
import { t } from "./i18n.js";
import { esc } from "./tiles.js";
import { $, setHTML, shows, savedName, saveName, toast, toastUntilTyped } from "./common.js";

const MUTED_KEY = "ra.muted";
const KEEP = 200;
const C = { lines: [], channel: null, send: null, me: () => null, open: null };

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]")); } catch (e) { return new Set(); }
}

function saveMuted(set) {
  try { localStorage.setItem(MUTED_KEY, JSON.stringify([...set].slice(-KEEP))); } catch (e) { /* private mode */ }
}

const key = (name) => String(name).toLocaleLowerCase();

function mine(line) {
  const seat = C.me();
  return seat === null ? line.seat === null && key(line.name) === key(savedName() || "") : line.seat === seat;
}

function lineHTML(line) {
  const menu = mine(line) ? "" :
    `<button type="button" class="btn small chat-more" data-id="${line.id}" aria-expanded="${C.open === line.id}" aria-label="${esc(t("chat.more", { name: line.name }))}">⋯</button>`;
  const acts = C.open === line.id ?
    `<span class="chat-acts"><button type="button" class="btn small chat-mute" data-name="${esc(line.name)}">${esc(t("chat.mute", { name: line.name }))}</button>` +
    `<button type="button" class="btn small chat-report" data-id="${line.id}">${esc(t("chat.report"))}</button></span>` : "";
  // An account's name, said by that account, links to its profile; a guest's stays plain text.
  const who = line.account ? `<a class="profile-link" href="/u/${encodeURIComponent(line.name)}">${esc(line.name)}</a>` : esc(line.name);
  return `<li class="chat-line${mine(line) ? " mine" : ""}"><span class="chat-name">${who}</span> ` +
    `<span class="chat-text">${esc(line.text)}</span>${menu}${acts}</li>`;
}

export function renderChat() {
  const box = $("#chat-card");
  if (!box || C.channel === null) return;
  box.hidden = false;
  $("#chat-title").textContent = t(`chat.${C.channel}`);
  $("#chat-input").placeholder = t("chat.placeholder");
  const askName = C.me() === null && !savedName(); // a spectator speaks under a name they give
  $("#chat-name").hidden = !askName;
  $("#chat-name").placeholder = t("lobby.name");
  $("#chat-send").textContent = t("chat.send");
  const hush = muted();
  const shown = C.lines.filter((l) => !hush.has(key(l.name)) || mine(l));
  const hidden = C.lines.length - shown.length;
  const list = $("#chat-lines");
  const html = shown.length ? shown.map(lineHTML).join("") : `<li class="muted">${esc(t("chat.none"))}</li>`;
  // Where the list was scrolled is read (a layout of the page) only when its lines change: a
  // table redraws the chat with every move.
  if (!shows(list, html)) {
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    setHTML(list, html);
    if (atEnd) list.scrollTop = list.scrollHeight;
  }
  const note = $("#chat-muted");
  note.hidden = hush.size === 0;
  note.innerHTML = `${esc(t("chat.mutedCount", { n: hidden }))} <button type="button" class="btn small" id="chat-unmute">${esc(t("chat.unmute"))}</button>`;
}

function onClick(e) {
  const b = e.target.closest("button");
  if (!b) return;
  if (b.classList.contains("chat-more")) { C.open = C.open === Number(b.dataset.id) ? null : Number(b.dataset.id); renderChat(); return; }
  if (b.classList.contains("chat-mute")) {
    const hush = muted();
    hush.add(key(b.dataset.name));
    saveMuted(hush);
    C.open = null;
    toast(t("chat.muted", { name: b.dataset.name }), "ok");
    renderChat();
    return;
  }
  if (b.classList.contains("chat-report")) {
    if (C.send({ type: "report", id: Number(b.dataset.id) })) { C.open = null; renderChat(); }
    return;
  }
  if (b.id === "chat-unmute") { saveMuted(new Set()); renderChat(); }
}

function onSubmit(e) {
  e.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  const msg = { type: "chat", text };
  if (C.me() === null) {
    const name = savedName() || $("#chat-name").value.trim();
    if (!name) { toastUntilTyped(t("lobby.needName"), $("#chat-name")); $("#chat-name").focus(); return; }
    saveName(name);
    msg.name = name;
  }
  if (C.send(msg)) { input.value = ""; renderChat(); }
}

/** Wire the chat card: ``send`` sends a message on the table's socket, ``me`` is this page's seat. */
export function mountChat(send, me) {
  C.send = send;
  C.me = me;
  $("#chat-form").addEventListener("submit", onSubmit);
  $("#chat-card").addEventListener("click", onClick);
}

/** A ``chat`` message: the channel's last lines on joining, then each new one. */
export function onChat(msg) {
  if (msg.history || msg.channel !== C.channel) C.lines = [];
  C.channel = msg.channel;
  const known = new Set(C.lines.map((l) => l.id));
  C.lines.push(...msg.lines.filter((l) => !known.has(l.id)));
  C.lines = C.lines.slice(-KEEP);
  renderChat();
}

export function onReported() {
  toast(t("chat.reported"), "ok");
}
