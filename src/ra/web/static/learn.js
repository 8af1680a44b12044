// The guided first game: the server plays each chapter (ra.learn); this page shows its
// texts, the board and the moves allowed, and keeps the learner's progress in localStorage.
import { t, currentLang } from "./i18n.js";
import { mountHeader, api, $, esc, setHTML, setItemsHTML, saveSeat, savedName, saveName } from "./common.js";
import { renderBoard, renderPlayer } from "./board.js";

const KEY = "ra.learn";
const L = { chapters: [], reply: null };

function loadProgress() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY) || "null");
    if (p && typeof p.chapter === "string" && Array.isArray(p.made)) return p;
  } catch (e) { /* a damaged entry: start again */ }
  return { chapter: null, made: [] };
}

function saveProgress(chapter, made) {
  localStorage.setItem(KEY, JSON.stringify({ chapter, made }));
}

async function open(chapter, made, action = null) {
  let r;
  try {
    r = await api("POST", `/api/learn/chapters/${encodeURIComponent(chapter)}`, { made, action, lang: currentLang() });
  } catch (ex) {
    if (made.length) return open(chapter, []);  // saved moves no longer fit: start the chapter again
    $("#learn-message").textContent = ex.message;
    return;
  }
  L.reply = r;
  L.tries = (L.tries || 0) + 1;
  saveProgress(r.chapter, r.made);
  render();
}

function render() {
  const r = L.reply;
  if (!r) return;
  const title = t(`learn.${r.chapter}.title`);
  $("#learn-heading").textContent = t("learn.chapter_heading", { number: r.number, total: r.total, title });
  $("#learn-intro").textContent = t(`learn.${r.chapter}.intro`);
  $("#learn-step").textContent = t("learn.step", { step: Math.min(r.done + 1, r.steps), steps: r.steps });
  $("#learn-text").textContent = r.finished && r.number === r.total ? "" : r.text;
  const msg = $("#learn-message");
  msg.textContent = r.message === null ? "" : (r.ok ? `${t("learn.right")} ${r.message}` : r.message);
  msg.className = `learn-message${r.ok === false ? " wrong" : r.ok ? " right" : ""}`;
  $("#learn-moves").setAttribute("aria-label", t("learn.your_moves"));
  $("#learn-moves").innerHTML = r.moves.map((m) =>
    `<button type="button" class="btn" data-act="${esc(m.action)}">${esc(m.label)}</button>`).join("");
  $("#learn-end").innerHTML = endHtml(r);
  setHTML($("#board-area"), renderBoard(r.view, {}));
  setItemsHTML($("#players"), r.view.players.map((_, i) => renderPlayer(r.view, i, { me: 0 })));
  $("#learn-chapters").innerHTML = L.chapters.map((c, i) =>
    `<li><a href="#${esc(c.id)}" data-chapter="${esc(c.id)}"${c.id === r.chapter ? ' aria-current="step"' : ""}>${esc(t(`learn.${c.id}.title`))}</a></li>`).join("");
  document.title = `${t("learn.title")} — ${title}`;
  document.querySelector("main").dataset.tries = String(L.tries);
}

function endHtml(r) {
  if (!r.finished) return "";
  if (r.number < r.total) return `<button type="button" class="btn primary" id="learn-next">${esc(t("learn.next"))}</button>`;
  return `<p>${esc(t("learn.all_done"))}</p><div class="name-row"><label><span>${esc(t("lobby.name"))}</span>` +
    `<input id="learn-name" maxlength="24" autocomplete="nickname" value="${esc(savedName() || "")}" placeholder="${esc(t("lobby.namePh"))}"></label>` +
    `<button type="button" class="btn primary" id="learn-play">${esc(t("learn.play_bots"))}</button></div><p class="form-error" id="learn-error" role="alert"></p>`;
}

async function playBots() {
  const name = $("#learn-name").value.trim();
  if (!name) { $("#learn-error").textContent = t("lobby.needName"); $("#learn-name").focus(); return; }
  saveName(name);
  const bots = [{ kind: "bot", level: "easy" }, { kind: "bot", level: "easy" }];
  try {
    const g = await api("POST", "/api/games", { seats: [{ kind: "human" }, ...bots], name, join: true });
    saveSeat(g.game.id, g.seat, g.token, name);
    location.href = `/g/${encodeURIComponent(g.game.id)}`;
  } catch (ex) { $("#learn-error").textContent = ex.message; }
}

document.addEventListener("click", (e) => {
  const el = e.target.closest("button, a");
  if (!el || !L.reply) return;
  if (el.dataset.act) open(L.reply.chapter, L.reply.made, el.dataset.act);
  else if (el.dataset.chapter) { e.preventDefault(); open(el.dataset.chapter, []); }
  else if (el.id === "learn-next") open(L.chapters[L.reply.number].id, []);
  else if (el.id === "learn-restart") open(L.reply.chapter, []);
  else if (el.id === "learn-play") playBots();
});

async function start() {
  L.chapters = (await api("GET", "/api/learn/chapters")).chapters;
  const p = loadProgress();
  const known = L.chapters.some((c) => c.id === p.chapter);
  await open(known ? p.chapter : L.chapters[0].id, known ? p.made : []);
}

// Texts from the server come in the page's language: ask again when it changes.
mountHeader(() => { if (L.reply) open(L.reply.chapter, L.reply.made); });
delete document.documentElement.dataset.ready;  // ready once the first chapter is shown
start().then(() => { document.documentElement.dataset.ready = "true"; });
