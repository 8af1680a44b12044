// "Your turn" as a browser notification, while a page of the site is open but not looked at
// (another tab, a minimised window): for games by turns, and for a player who stepped away.
import { t } from "./i18n.js";
import { esc } from "./tiles.js";
import { icon } from "./icons.js";

const supported = () => typeof window.Notification === "function";

/** Whether notifications may be shown (the person allowed them for this site). */
export const notifying = () => supported() && Notification.permission === "granted";

/** A button asking for permission, or a line saying how things stand ("" where unsupported). */
export function notifyControl() {
  if (!supported()) return "";
  if (Notification.permission === "granted") return `<p class="notify-state muted">${icon("bell")} ${esc(t("notify.on"))}</p>`;
  if (Notification.permission === "denied") return `<p class="notify-state muted">${esc(t("notify.denied"))}</p>`;
  return `<button type="button" class="btn small notify-ask">${icon("bell")} ${esc(t("notify.ask"))}</button>`;
}

/** Wire the permission buttons under ``root``; ``then`` redraws once the person answered. */
export function wireNotify(root, then) {
  root.querySelectorAll(".notify-ask").forEach((b) => b.addEventListener("click", async () => {
    try { await Notification.requestPermission(); } catch (e) { /* an old browser */ }
    then();
  }));
}

/** Tell the person it is their turn at ``url`` — only when the page is not being looked at. */
export function notifyTurn(body, url) {
  if (!notifying() || !document.hidden) return;
  try {
    const n = new Notification(t("notify.yourTurn"), { body, tag: url });
    n.onclick = () => { window.focus(); if (location.pathname !== url) location.href = url; n.close(); };
  } catch (e) { /* some mobile browsers allow notifications only from a service worker */ }
}
