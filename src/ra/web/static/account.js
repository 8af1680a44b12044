// The account page: sign up or sign in (optional: guests play as before) or ask for a password
// link by mail, then your profile, your data, the password, signing out (here or everywhere) and
// deleting the account. Changes carry the session's CSRF token. A mailed password link lands
// here as /account#reset=TOKEN (a fragment: never sent to the server, so in no log); the page
// takes the token out of the address bar at once and asks for the new password.
import { t, has, join } from "./i18n.js";
import { $, esc, mountHeader, allSeats, savedName, saveName, saveSeat, toast, fmtDate, seatName, account } from "./common.js";

let me = null;
let resetToken = takeResetToken();

function takeResetToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("reset");
  const fromQuery = new URLSearchParams(location.search).get("reset");
  const token = fromHash || fromQuery;
  if (token) {
    const q = new URLSearchParams(location.search);
    q.delete("reset");
    const rest = q.toString();
    try { history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "")); } catch (e) { /* ignore */ }
  }
  return token ? token.slice(0, 100) : null;
}
const ACCOUNT_LINK = `<a href="/account" data-i18n="nav.account"></a>`;

function savedSeats() {
  return Object.entries(allSeats()).map(([game, s]) => ({ game, token: String(s.token) })).slice(0, 200);
}

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (me) headers["X-CSRF-Token"] = me.csrf;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const key = [`account.err.${data.error}`, `err.${data.error}`].find((k) => has(k));
    throw new Error(key ? t(key) : data.message || `HTTP ${res.status}`);
  }
  return data;
}

function form(id, title, button, help) {
  return `<section class="card"><h2>${esc(t(title))}</h2>${help ? `<p class="muted">${esc(t(help))}</p>` : ""}` +
    `<form id="${id}" class="account-form" novalidate>` +
    `<label><span>${esc(t("lobby.name"))}</span><input name="name" maxlength="20" autocomplete="username" value="${esc(savedName())}" required></label>` +
    `<label><span>${esc(t("account.password"))}</span><input name="password" type="password" minlength="8" maxlength="200" autocomplete="${id === "signup" ? "new-password" : "current-password"}" required></label>` +
    (id === "signup" ? `<label><span>${esc(t("account.email"))}</span><input name="email" type="email" maxlength="254" autocomplete="email"></label>` : "") +
    `<button type="submit" class="btn primary">${esc(t(button))}</button><p class="form-error" role="alert"></p></form>` +
    (id === "login" ? forgotForm() : "") + `</section>`;
}

// "Forgot your password?": a name or an address; the answer is the same whether it has an account.
function forgotForm() {
  const open = location.hash === "#forgot" ? " open" : "";
  return `<details id="forgot-box"${open}><summary>${esc(t("account.forgot"))}</summary><p class="muted">${esc(t("account.forgotHelp"))}</p>` +
    `<form id="forgot" class="account-form" novalidate><label><span>${esc(t("account.forgotWho"))}</span>` +
    `<input name="who" maxlength="254" autocomplete="username" required></label>` +
    `<button type="submit" class="btn">${esc(t("account.forgotBtn"))}</button><p class="muted forgot-state" role="status"></p><p class="form-error" role="alert"></p></form></details>`;
}

function passwordInput(name, label, auto) {
  return `<label><span>${esc(t(label))}</span><input name="${name}" type="password" minlength="8" maxlength="200" autocomplete="${auto}" required></label>`;
}

// The page a mailed password link opens: the new password, once.
function resetCard() {
  return `<h1>${esc(t("account.resetTitle"))}</h1><section class="card" id="reset-box"><p class="muted">${esc(t("account.resetHelp"))}</p>` +
    `<form id="reset" class="account-form" novalidate>${passwordInput("password", "account.newPassword", "new-password")}` +
    `<button type="submit" class="btn primary">${esc(t("account.resetBtn"))}</button><p class="form-error" role="alert"></p></form>` +
    `<p><a href="/account#forgot" id="reset-again" hidden>${esc(t("account.forgot"))}</a></p></section>`;
}

// Signed in: change the password (the other devices are signed out), or sign out everywhere.
function securityCards() {
  return `<section class="card" id="password-box"><h2>${esc(t("account.passwordTitle"))}</h2>` +
    `<form id="password" class="account-form" novalidate><input type="text" name="username" autocomplete="username" value="${esc(me.name)}" hidden>` +
    passwordInput("current", "account.currentPassword", "current-password") + passwordInput("password", "account.newPassword", "new-password") +
    `<button type="submit" class="btn">${esc(t("account.passwordBtn"))}</button><p class="form-error" role="alert"></p></form></section>` +
    `<section class="card" id="everywhere-box"><h2>${esc(t("account.everywhere"))}</h2><p class="muted">${esc(t("account.everywhereHelp"))}</p>` +
    `<button type="button" class="btn" id="logout-everywhere">${esc(t("account.everywhere"))}</button></section>`;
}

function render() {
  const box = $("#account");
  document.title = `${t("app.title")} — ${t(resetToken ? "account.resetTitle" : me ? "account.title" : "account.signIn")}`;
  if (resetToken) {
    box.innerHTML = resetCard();
  } else if (!me) {
    box.innerHTML = `<h1>${esc(t("account.signIn"))}</h1>` +
      form("login", "account.signIn", "account.signInBtn", null) +
      form("signup", "account.signUp", "account.signUpBtn", "account.signUpHelp");
  } else {
    const profile = `/u/${encodeURIComponent(me.name)}`;
    box.innerHTML = `<h1>${esc(t("account.title"))}</h1><section class="card"><p>${esc(t("account.signedInAs", { name: me.name }))}</p>` +
      `<p class="account-links"><a class="btn" href="${esc(profile)}">${esc(t("account.profile"))}</a>` +
      `<a class="btn" href="/api/account/export" download>${esc(t("account.export"))}</a>` +
      `<button type="button" class="btn" id="logout">${esc(t("account.signOut"))}</button></p></section>` +
      `<section class="card" id="mail"><h2>${esc(t("account.mail"))}</h2><form id="email" class="account-form" novalidate>` +
      `<label><span>${esc(t("account.email"))}</span><input name="email" type="email" maxlength="254" autocomplete="email"></label>` +
      `<p class="muted mail-state" role="status"></p><p class="muted">${esc(t("account.emailPasswordHelp"))}</p>` +
      passwordInput("password", "account.emailPassword", "current-password").replace(" required", "") +
      `<button type="submit" class="btn">${esc(t("account.emailSave"))}</button><p class="muted mail-sent" role="status"></p><p class="form-error" role="alert"></p></form>` +
      `<label class="switch"><input type="checkbox" id="mail-turns"> ${esc(t("account.mailTurns"))}</label></section>` +
      `<section class="card" id="games"><h2>${esc(t("account.games"))}</h2><p class="muted">${esc(t("account.gamesHelp"))}</p><ul class="game-list account-games"></ul></section>` +
      securityCards() +
      `<section class="card"><details><summary>${esc(t("account.delete"))}</summary><p class="muted">${esc(t("account.deleteHelp"))}</p>` +
      `<form id="delete" class="account-form" novalidate><label><span>${esc(t("account.password"))}</span><input name="password" type="password" autocomplete="current-password" required></label>` +
      `<button type="submit" class="btn danger">${esc(t("account.deleteBtn"))}</button><p class="form-error" role="alert"></p></form></details></section>`;
  }
  wire();
  if (me && !resetToken) { showGames(); showMail(); }
}

// The address mail goes to (confirmed by a mailed link first) and a switch per kind of mail.
// ``first``: the page's first look at them, which never overwrites what the person already typed
// or switched meanwhile (a slow answer once emptied a typed address, and saving then removed it),
// nor the answer to a change saved before it came (that one is newer).
function mailState(m, first = false) {
  const f = $("#email");
  if (!f || (first && f.dataset.answered)) return;
  if (!first) f.dataset.answered = "1";
  if (!(first && f.email.dataset.typed)) f.email.value = m.email || "";
  $(".mail-state", f).textContent = !m.email ? t("account.emailNone") : m.confirmed ? t("account.emailConfirmed") : t("account.emailUnconfirmed");
  const turns = $("#mail-turns");
  if (!(first && turns.dataset.switched)) turns.checked = m.turns;
}

async function showMail() {
  const f = $("#email");
  if (!f) return;
  // The form is this page's from the start: submitted before its state arrives it is still sent
  // by this script (the browser's own submit would put the password in the address).
  f.email.addEventListener("input", () => { f.email.dataset.typed = "1"; });
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    $(".form-error", f).textContent = "";
    $(".mail-sent", f).textContent = "";
    const lang = document.documentElement.lang || "en";
    const body = { email: f.email.value.trim() || null, lang, password: f.password.value || null };
    try {
      const m = await call("POST", "/api/account/email", body);
      mailState(m);
      f.password.value = "";
      if (m.email && !m.confirmed) $(".mail-sent", f).textContent = t(m.mailed ? "account.emailMailed" : "account.emailNotMailed");
    } catch (ex) { $(".form-error", f).textContent = ex.message; }
  });
  $("#mail-turns").addEventListener("change", async (e) => {
    e.target.dataset.switched = "1";
    try { mailState(await call("POST", "/api/account/mail", { turns: e.target.checked })); } catch (ex) { toast(ex.message, "bad"); }
  });
  try { mailState(await call("GET", "/api/account/mail"), true); } catch (e) { /* the form works without it */ }
}

// The account's games: those in play first (your turn on top), then the latest finished; each
// with its opponents, whose turn it is, its state and a link to its table, and "Play on this
// device" for a seat of a game in play that this browser does not hold (opened on another device).
const FINISHED_SHOWN = 10;

function gameItem(g, here) {
  const id = encodeURIComponent(g.id);
  const live = g.status !== "finished";
  const mine = g.status === "running" && g.to_move === g.seat;
  const held = here[g.id] && Number(here[g.id].seat) === g.seat;
  let pills = `<span class="status-pill ${esc(g.status)}">${esc(t(`lobby.status.${g.status}`))}</span>`;
  if (mine) pills += ` <span class="status-pill turn">${esc(t("account.yourTurn"))}</span>`;
  if (g.forfeited) pills += ` <span class="status-pill away">${esc(t("table.forfeited"))}</span>`;
  else if (g.away && live) pills += ` <span class="status-pill away">${esc(t("table.away"))}</span>`;
  const meta = [`#${g.id}`, t("lobby.players", { n: g.players }), t("lobby.seatAs", { n: g.seat + 1 })];
  if (g.status === "open") meta.push(t("lobby.freeSeats", { n: g.opponents.filter((o) => o.kind === "human" && !o.name).length }));
  if (g.status === "running") {
    meta.push(t("table.epoch", { n: g.epoch }), t("lobby.decisions", { n: g.decisions }));
    const who = g.opponents.find((o) => o.seat === g.to_move);
    if (!mine && who) meta.push(t("account.theirTurn", { name: seatName(who) }));
  }
  if (!live && g.won !== null) meta.push(t(g.won ? "profile.won" : "profile.lost"));
  meta.push(fmtDate(g.created));
  let acts;
  if (!live) {
    acts = `<a class="btn small" href="/g/${id}">${esc(t("fin.title"))}</a><a class="btn small" href="/replay/${id}">▶ ${esc(t("lobby.replay"))}</a>`;
  } else if (held) {
    acts = `<a class="btn small primary" href="/g/${id}">${esc(t("account.open"))}</a>`;
  } else {
    acts = `<a class="btn small" href="/g/${id}">${esc(t("account.open"))}</a>` +
      `<button type="button" class="btn small primary" data-here="${esc(g.id)}" data-seat="${g.seat}">${esc(t("account.playHere"))}</button>`;
  }
  return `<li class="game-item${mine ? " your-turn" : ""}" data-game="${esc(g.id)}"><div class="gi-main">` +
    `<div class="gi-title">${esc(t("account.against", { names: join(g.opponents.map(seatName)) }))} ${pills}</div>` +
    `<div class="gi-meta">${esc(meta.join(" · "))}</div></div><div class="gi-acts">${acts}</div></li>`;
}

async function showGames() {
  let games = [];
  try { games = (await call("GET", `/api/players/${encodeURIComponent(me.name)}`)).games; } catch (e) { return; }
  const list = $("#games .account-games");
  if (!list) return;
  const here = allSeats();
  const mine = (g) => Number(g.status === "running" && g.to_move === g.seat);
  const live = games.filter((g) => g.status !== "finished").sort((a, b) => mine(b) - mine(a));
  const done = games.filter((g) => g.status === "finished");
  const shown = live.concat(done.slice(0, FINISHED_SHOWN));
  list.innerHTML = shown.length ? shown.map((g) => gameItem(g, here)).join("") : `<li class="muted">${esc(t("account.noGames"))}</li>`;
  if (done.length > FINISHED_SHOWN) {
    list.insertAdjacentHTML("afterend", `<p><a href="/u/${esc(encodeURIComponent(me.name))}">${esc(t("account.allGames"))}</a></p>`);
  }
  list.querySelectorAll("[data-here]").forEach((b) => b.addEventListener("click", async () => {
    try {
      const r = await call("POST", `/api/account/seats/${encodeURIComponent(b.dataset.here)}/${b.dataset.seat}/here`);
      await saveSeat(r.game, r.seat, r.token, me.name);
      location.href = `/g/${encodeURIComponent(r.game)}`;
    } catch (ex) { toast(ex.message, "bad"); }
  }));
}

function wire() {
  for (const id of ["login", "signup", "delete"]) {
    const f = $(`#${id}`);
    if (f) f.addEventListener("submit", (e) => { e.preventDefault(); submit(id, f); });
  }
  const out = $("#logout");
  if (out) out.addEventListener("click", async () => {
    try { await call("POST", "/api/account/logout"); me = null; render(); } catch (ex) { toast(ex.message, "bad"); }
  });
  const everywhere = $("#logout-everywhere");
  if (everywhere) everywhere.addEventListener("click", async () => {
    try {
      await call("POST", "/api/account/logout-everywhere");
      me = null;
      toast(t("account.everywhereDone"), "ok");
      render();
    } catch (ex) { toast(ex.message, "bad"); }
  });
  const handlers = { forgot: askForLink, reset: setByLink, password: changePassword };
  for (const [id, fn] of Object.entries(handlers)) {
    const f = $(`#${id}`);
    if (f) f.addEventListener("submit", (e) => { e.preventDefault(); clearErrors(); fn(f).catch((ex) => { $(".form-error", f).textContent = ex.message; }); });
  }
  const forgot = $("#forgot");
  const login = $("#login");
  if (forgot && login) $("#forgot-box").addEventListener("toggle", () => { if (!forgot.who.value) forgot.who.value = login.name.value.trim(); });
}

function clearErrors() { document.querySelectorAll(".form-error").forEach((e) => { e.textContent = ""; }); }

async function askForLink(f) {
  const who = f.who.value.trim();
  const state = $(".forgot-state", f);
  state.textContent = "";
  if (!who) { $(".form-error", f).textContent = t("lobby.needName"); return; }
  const r = await call("POST", "/api/account/reset", { who });
  state.textContent = t(r.mail ? "account.forgotSent" : "account.forgotNoMail");
}

async function setByLink(f) {
  const password = f.password.value;
  if (password.length < 8) { $(".form-error", f).textContent = t("account.err.short"); return; }
  try {
    me = await call("POST", "/api/account/reset/password", { token: resetToken, password });
  } catch (ex) {
    $("#reset-again").hidden = false;
    throw ex;
  }
  resetToken = null;
  saveName(me.name);
  toast(t("account.resetDone"), "ok");
  render();
}

async function changePassword(f) {
  const current = f.current.value;
  const password = f.password.value;
  if (password.length < 8) { $(".form-error", f).textContent = t("account.err.short"); return; }
  me = await call("POST", "/api/account/password", { current, password }); // a new session: its CSRF token
  f.current.value = "";
  f.password.value = "";
  toast(t("account.passwordChanged"), "ok");
}

async function submit(id, f) {
  const err = $(".form-error", f);
  document.querySelectorAll(".form-error").forEach((e) => { e.textContent = ""; }); // an old form's error too
  const name = f.name ? f.name.value.trim() : "";
  const password = f.password.value;
  if (id !== "delete" && !name) { err.textContent = t("lobby.needName"); return; }
  if (id === "signup" && password.length < 8) { err.textContent = t("account.err.short"); return; }
  try {
    if (id === "delete") {
      await call("POST", "/api/account/delete", { password });
      me = null;
      toast(t("account.deleted"), "ok");
    } else {
      const lang = document.documentElement.lang || "en"; // the mail's language
      const body = id === "signup" ? { name, password, email: f.email.value.trim() || null, lang, seats: savedSeats() } : { name, password };
      me = await call("POST", `/api/account/${id}`, body);
      saveName(me.name);
      if (id === "login") await call("POST", "/api/account/claim", { seats: savedSeats() });
      toast(t("account.welcome", { name: me.name }), "ok");
    }
    render();
  } catch (ex) { err.textContent = ex.message; }
}

// A link opened in this very tab changes only the fragment: no new page load.
addEventListener("hashchange", () => {
  const token = takeResetToken();
  if (token) { resetToken = token; render(); return; }
  if (location.hash === "#forgot") { resetToken = null; render(); } // "ask for a new link": the form, open
});

mountHeader(render, ACCOUNT_LINK);
me = await account(); // asks only with a session cookie: a guest's page logs no 401
render();
