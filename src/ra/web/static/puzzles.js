// Puzzles: the server picks a puzzle near your rating, judges your answer and moves the rating
// (ra.puzzles); this page draws the board and keeps, without an account, the rating in localStorage.
import { t, currentLang } from "./i18n.js";
import { mountHeader, api, $, esc, setHTML, setItemsHTML, account } from "./common.js";
import { renderBoard, renderPlayer } from "./board.js";

const KEY = "ra.puzzles";
const P = { puzzle: null, result: null, themes: [], csrf: null, tries: 0 };

function loadState() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "null");
    if (s && typeof s === "object" && Array.isArray(s.seen)) return s;
  } catch (e) { /* a damaged entry: start again */ }
  return { solver: null, seen: [], theme: "" };
}
const S = loadState();
function saveState() {
  try { localStorage.setItem(KEY, JSON.stringify(S)); } catch (e) { /* private mode: this visit only */ }
}

async function post(path, body) {
  // Signed in, an answer changes the account: the page's CSRF token goes with it.
  const headers = { "Content-Type": "application/json" };
  if (P.csrf) headers["X-CSRF-Token"] = P.csrf;
  const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.message) || `HTTP ${res.status}`);
  return data;
}

async function next(id = null) {
  P.result = null;
  const body = { solver: S.solver || {}, seen: S.seen.slice(-900), theme: S.theme || null, lang: currentLang() };
  try {
    P.puzzle = id ? await api("GET", `/api/puzzles/${encodeURIComponent(id)}?lang=${currentLang()}`) : await post("/api/puzzles/next", body);
  } catch (ex) { $("#puzzle-task").textContent = ex.message; return; }
  if (!P.puzzle.account && id) P.puzzle.solver = Object.assign(P.puzzle.solver, S.solver || {});
  history.replaceState(null, "", `/puzzles?id=${encodeURIComponent(P.puzzle.id)}`);
  render();
}

async function answer(action) {
  const p = P.puzzle;
  try {
    P.result = await post(`/api/puzzles/${encodeURIComponent(p.id)}/answer`, { action, solver: S.solver || {}, repeat: S.seen.includes(p.id), lang: currentLang() });
  } catch (ex) { $("#puzzle-result").textContent = ex.message; return; }
  P.result.chosen = action;
  if (!S.seen.includes(p.id)) S.seen.push(p.id);
  if (!p.account) S.solver = P.result.solver;
  saveState();
  P.tries += 1;
  render();
}

function themeNames(ids) { return ids.map((id) => t(`puzzle.theme.${id}`)).join(", "); }

function resultHtml(r) {
  const delta = r.solver.rating - r.before.rating;
  const verdict = r.correct ? t("puzzle.right") : t("puzzle.wrong", { answer: r.answer_label });
  const rows = r.chances.map((c) => `<tr${c.action === r.answer ? ' class="best"' : ""}${c.action === r.chosen ? ' data-chosen="true"' : ""}>` +
    `<td>${esc(c.label)}${c.action === r.answer ? ` <b>★</b>` : ""}${c.action === r.chosen ? ` <span class="muted">${esc(t("puzzle.your_answer"))}</span>` : ""}</td>` +
    `<td class="num">${Math.round(c.win * 100)}%</td></tr>`).join("");
  const change = r.rated ? t("puzzle.rating_change", { rating: r.solver.rating, delta: (delta >= 0 ? "+" : "") + delta }) : t("puzzle.web.not_rated");
  return `<p class="learn-message ${r.correct ? "right" : "wrong"}" id="puzzle-verdict">${esc(verdict)}</p>` +
    `<p id="puzzle-why">${esc(r.why)}</p><p class="muted">${esc(change)}</p>` +
    `<table class="guide-numbers"><caption>${esc(t("guide.advisor"))}</caption><thead><tr><th>${esc(t("guide.action"))}</th><th>${esc(t("guide.win_chance"))}</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<p><button type="button" class="btn primary" id="puzzle-next">${esc(t("puzzle.next"))}</button></p>`;
}

function render() {
  const p = P.puzzle;
  if (!p) return;
  const solver = P.result ? P.result.solver : p.solver;
  $("#puzzle-meta").textContent = t("puzzle.meta", { n: p.players, themes: themeNames(p.themes), rating: p.rating });
  $("#puzzle-task").textContent = t("puzzle.task");
  $("#puzzle-moves").setAttribute("aria-label", t("puzzle.task"));
  $("#puzzle-moves").innerHTML = P.result ? "" : p.moves.map((m) =>
    `<button type="button" class="btn" data-act="${esc(m.action)}">${esc(m.label)}</button>`).join("");
  $("#puzzle-result").innerHTML = P.result ? resultHtml(P.result) : "";
  setHTML($("#board-area"), renderBoard(p.view, {}));
  setItemsHTML($("#players"), p.view.players.map((_, i) => renderPlayer(p.view, i, { me: p.mover })));
  $("#puzzle-rating").textContent = String(solver.rating);
  // How it settles: a new rating takes big steps, each answer makes them smaller (its sigma).
  $("#puzzle-settling").textContent = solver.step ? t("puzzle.web.settling", { step: solver.step }) : "";
  $("#puzzle-streak").textContent = t("puzzle.streak", { n: solver.streak, best: solver.best_streak, solved: solver.solved, tried: solver.tried });
  $("#puzzle-kept").textContent = p.account ? t("puzzle.kept_account", { name: p.account }) : t("puzzle.kept_browser");
  $("#puzzle-theme").innerHTML = `<option value="">${esc(t("puzzle.theme.any"))}</option>` +
    P.themes.map((th) => `<option value="${esc(th.id)}"${th.id === S.theme ? " selected" : ""}>${esc(t(`puzzle.theme.${th.id}`))} (${th.count})</option>`).join("");
  document.title = `${t("puzzle.title")} — ${t("app.title")}`;
  document.querySelector("main").dataset.tries = String(P.tries);
  document.querySelector("main").dataset.puzzle = p.id;
  if (P.result) $("#puzzle-next").focus();
}

document.addEventListener("click", (e) => {
  const el = e.target.closest("button");
  if (!el || !P.puzzle) return;
  if (el.dataset.act && !P.result) answer(el.dataset.act);
  else if (el.id === "puzzle-next") next();
});
document.addEventListener("change", (e) => {
  if (e.target.id !== "puzzle-theme") return;
  S.theme = e.target.value;
  saveState();
  next();
});

async function start() {
  P.themes = (await api("GET", "/api/puzzles/themes")).themes;
  const me = await account();
  if (me) P.csrf = me.csrf;
  await next(new URLSearchParams(location.search).get("id"));
}

// The labels and the explanation come from the server in the page's language: ask again.
mountHeader(() => { if (P.puzzle && !P.result) next(P.puzzle.id); else render(); });
delete document.documentElement.dataset.ready;  // ready once the first puzzle is shown
start().then(() => { document.documentElement.dataset.ready = "true"; });
