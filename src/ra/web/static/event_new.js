// Create an event (issue 55): a form for signed-in accounts (a guest is told why and offered the
// sign-in page). Its choices and bounds come from the server's own validation
// (GET /api/events/form), so the form offers what the server accepts (an arena, bots filling
// seats, once the server takes them); a refusal is shown next to the field it names.
import { t, has, currentLang } from "./i18n.js";
import { $, esc, mountHeader, account } from "./common.js";

let me = null;
let schema = null;
let values = null;
let errors = {};
let problem = "";

// The server's field for each input the page shows (the clock is one number in seconds).
const FIELD_OF = { move_seconds: "clock_amount", start_in: "start" };
const DAY = 86400;

function prop(name) {
  const p = schema.properties[name];
  if (!p) return null;
  return p.anyOf ? { ...p, ...p.anyOf[0] } : p;
}

function defaults() {
  const start = new Date(Date.now() + 3600 * 1000);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  const local = new Date(start.getTime() - start.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  return { name: "", kind: prop("kind").default, table_size: String(prop("table_size").default),
    rounds: String(prop("rounds").default), minutes: prop("minutes") ? String(prop("minutes").default ?? 60) : "",
    clock: "none", clock_amount: "", start: local, rated: prop("rated").default, invitation: false, bots: false, byes: false };
}

function hint(field) {
  if (field === "name") return t("eventNew.bad.name", { max: prop("name").maxLength });
  if (field === "start") return t("eventNew.bad.start", { days: Math.round(prop("start_in").maximum / DAY) });
  if (field === "clock_amount") {
    const p = prop("move_seconds");
    if (values.clock === "days") return t("eventNew.bad.range", { min: 1, max: Math.floor(p.maximum / DAY) });
    return t("eventNew.bad.range", { min: p.minimum, max: p.maximum });
  }
  const p = prop(field);
  if (p && p.minimum !== undefined) return t("eventNew.bad.range", { min: p.minimum, max: p.maximum });
  return t("eventNew.bad.other");
}

// A labelled control with its error (if any) said next to it and tied to it for screen readers.
function field(id, label, control) {
  const err = errors[id] ? `<span class="field-error" id="${id}-error">${esc(errors[id])}</span>` : "";
  return `<label class="event-field" for="ev-${id}"><span>${esc(label)}</span>${control(err ? ` aria-invalid="true" aria-describedby="${id}-error"` : "")}${err}</label>`;
}

function options(list, chosen) {
  return list.map(([v, label]) => `<option value="${esc(v)}"${String(v) === String(chosen) ? " selected" : ""}>${esc(label)}</option>`).join("");
}

function box(id, key) {
  return `<label class="event-check"><input type="checkbox" id="ev-${id}" name="${id}"${values[id] ? " checked" : ""}> ${esc(t(key))}</label>`;
}

function formHtml() {
  const kinds = prop("kind").enum.map((k) => [k, t(`event.kind.${k}`)]);
  const size = prop("table_size");
  const sizes = [];
  for (let n = size.minimum; n <= size.maximum; n++) sizes.push([n, String(n)]);
  const arena = values.kind === "arena";
  const clocks = [["none", t("eventNew.clock.none")], ["seconds", t("eventNew.clock.seconds")], ["days", t("eventNew.clock.days")]];
  const amount = values.clock === "days" ? "eventNew.clock.daysAmount" : "eventNew.clock.secondsAmount";
  return `<form class="card account-form event-form" id="event-form" novalidate>` +
    (problem ? `<p class="form-problem" role="alert">${esc(problem)}</p>` : "") +
    field("name", t("eventNew.name"), (a) => `<input id="ev-name" name="name" value="${esc(values.name)}" autocomplete="off"${a}>`) +
    field("kind", t("eventNew.kind"), (a) => `<select id="ev-kind" name="kind"${a}>${options(kinds, values.kind)}</select>`) +
    field("table_size", t("eventNew.tableSize"), (a) => `<select id="ev-table_size" name="table_size"${a}>${options(sizes, values.table_size)}</select>`) +
    (arena && prop("minutes")
      ? field("minutes", t("eventNew.minutes"), (a) => `<input id="ev-minutes" name="minutes" type="number" inputmode="numeric" value="${esc(values.minutes)}"${a}>`)
      : field("rounds", t("eventNew.rounds"), (a) => `<input id="ev-rounds" name="rounds" type="number" inputmode="numeric" value="${esc(values.rounds)}"${a}>`)) +
    field("clock", t("eventNew.clock"), (a) => `<select id="ev-clock" name="clock"${a}>${options(clocks, values.clock)}</select>`) +
    (values.clock === "none" ? "" : field("clock_amount", t(amount), (a) => `<input id="ev-clock_amount" name="clock_amount" type="number" inputmode="numeric" value="${esc(values.clock_amount)}"${a}>`)) +
    field("start", t("eventNew.start"), (a) => `<input id="ev-start" name="start" type="datetime-local" value="${esc(values.start)}"${a}>`) +
    box("rated", "eventNew.rated") + box("invitation", "eventNew.invitation") +
    (prop("bots") ? box("bots", "eventNew.bots") : "") +
    (prop("byes") ? box("byes", "eventNew.byes") : "") +
    `<p><button type="submit" class="btn primary">${esc(t("eventNew.create"))}</button></p></form>`;
}

function render() {
  const main = $("#event-new");
  document.title = `${t("app.title")} — ${t("eventNew.title")}`;
  let body = "";
  if (!me) body = `<section class="card"><p>${esc(t("eventNew.signIn"))}</p><p><a href="/account">${esc(t("eventNew.signInLink"))}</a></p></section>`;
  else if (!schema) body = `<p>${esc(t("table.loading"))}</p>`;
  else body = formHtml();
  main.innerHTML = `<h1>${esc(t("eventNew.title"))}</h1>` + body;
  const form = $("#event-form");
  if (!form) return;
  form.addEventListener("input", () => read(form));
  form.addEventListener("change", (e) => {
    read(form);
    if (e.target.name === "kind" || e.target.name === "clock") { render(); $(`#ev-${e.target.name}`).focus(); }
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); read(form); create(); });
}

function read(form) {
  for (const el of form.elements) {
    if (!el.name) continue;
    values[el.name] = el.type === "checkbox" ? el.checked : el.value;
  }
}

// What the server is asked for: numbers as typed (an empty box is null, for the server to name).
function body() {
  const num = (s) => (s === "" ? null : Number(s));
  const out = { name: values.name, kind: values.kind, table_size: num(values.table_size),
    rated: values.rated, invitation: values.invitation };
  if (values.kind === "arena" && prop("minutes")) out.minutes = num(values.minutes);
  else out.rounds = num(values.rounds);
  if (values.clock !== "none") {
    const n = num(values.clock_amount);
    out.move_seconds = n === null ? null : n * (values.clock === "days" ? DAY : 1);
  }
  const when = values.start ? new Date(values.start).getTime() : NaN;
  out.start_in = Number.isNaN(when) ? null : Math.round((when - Date.now()) / 1000);
  if (out.start_in !== null && out.start_in < 0 && out.start_in > -120) out.start_in = 0;  // "now", just typed
  if (prop("bots")) out.bots = values.bots;
  if (prop("byes")) out.byes = values.byes;
  return out;
}

async function create() {
  errors = {};
  problem = "";
  const res = await fetch("/api/events", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": me.csrf },
    body: JSON.stringify(body()),
  });
  const data = await res.json().catch(() => ({}));
  if (res.ok) {
    const invite = data.invite ? `#invite=${encodeURIComponent(data.invite)}` : "";
    location.assign(`/e/${encodeURIComponent(data.event.id)}${invite}`);
    return;
  }
  showRefusal(data, res.status);
}

// A refusal: each field the server names ("rounds: ...; start_in: ...") gets its own words next
// to it; anything else is said above the form.
function showRefusal(data, status) {
  if (data.message && (data.error === "bad_request")) {
    for (const part of data.message.split("; ")) {
      const name = part.split(":")[0].split(".")[0].trim();
      const id = FIELD_OF[name] || name;
      if (id in values) errors[id] = hint(id);
    }
  }
  if (!Object.keys(errors).length) {
    problem = has(`err.${data.error}`) ? t(`err.${data.error}`) : (currentLang() === "en" && data.message) || `HTTP ${status}`;
  }
  render();
  const first = Object.keys(errors)[0];
  if (first) $(`#ev-${first}`)?.focus();
}

mountHeader(render);
render();
me = await account();
render();
if (me) {
  try {
    const res = await fetch("/api/events/form");
    if (res.ok) schema = await res.json();
  } catch (e) { /* said as loading; a reload tries again */ }
  values = schema ? defaults() : null;
  render();
}
