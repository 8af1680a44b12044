// The lobby's list of events open or running (issue 55; GET /api/events), asked again every
// 30 s: events start on the hour, not every second, so polling is enough here. The card is always
// there, with its "Create an event" link (/events/new).
import { applyI18n } from "./i18n.js";
import { $, esc } from "./common.js";

const POLL_MS = 30000;

function show(events) {
  const card = $("#events-card");
  if (!card) return;
  $("#no-events").hidden = events.length > 0;
  $("#list-events").innerHTML = events.map((e) =>
    `<li><a href="/e/${encodeURIComponent(e.id)}">${esc(e.name)}</a> — ` +
    `<span data-i18n="event.kind.${esc(e.kind)}"></span>, <span data-i18n="event.status.${esc(e.status)}"></span></li>`).join("");
  applyI18n(card);
}

async function load() {
  try {
    const res = await fetch("/api/events");
    if (res.ok) show((await res.json()).events || []);
  } catch (e) { /* the next poll tries again */ }
  setTimeout(load, POLL_MS);
}

load();
