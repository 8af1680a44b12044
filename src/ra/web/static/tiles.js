// Our own tile art: every kind drawn as a small SVG (colour by category, an icon per kind,
// the printed name). Disasters get a black border; kept tiles a scarab mark.
import { tileCategory, tileName, tileShort, KEPT, t } from "./i18n.js";

const BG = {
  ra: ["#e2592a", "#9c2a10"],
  god: ["#7d4fb0", "#4a2575"],
  gold: ["#7a5a12", "#4d3806"],
  pharaoh: ["#1f4f9c", "#102a5c"],
  nile: ["#7cc4ec", "#3d8fc4"],
  flood: ["#1aa39a", "#0c6a64"],
  civilization: ["#3c9a4c", "#1d6129"],
  monument: ["#e6c88e", "#b8965a"],
  disaster: ["#a8321f", "#5e140a"],
};
const INK = {
  ra: "#ffd54a", god: "#ffd54a", gold: "#ffd54a", pharaoh: "#ffd54a", nile: "#0d3c70",
  flood: "#e9fffb", civilization: "#fff6d8", monument: "#4a2f12", disaster: "#fff1e0",
};

const ICONS = {
  ra: (c) => `<circle cx="30" cy="22" r="9" fill="${c}"/>` +
    Array.from({ length: 12 }, (_, i) => {
      const a = (i * Math.PI) / 6, x1 = 30 + 12 * Math.cos(a), y1 = 22 + 12 * Math.sin(a);
      const x2 = 30 + 17 * Math.cos(a), y2 = 22 + 17 * Math.sin(a);
      return `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="${c}" stroke-width="2.4" stroke-linecap="round"/>`;
    }).join("") + `<circle cx="30" cy="22" r="4" fill="#9c2a10"/>`,
  god: (c) => `<path d="M12 20 Q30 6 48 20 Q30 30 12 20Z" fill="none" stroke="${c}" stroke-width="2.6"/>` +
    `<circle cx="30" cy="19.5" r="5" fill="${c}"/><path d="M10 15 Q30 4 50 13" fill="none" stroke="${c}" stroke-width="2.2"/>` +
    `<path d="M27 26 L24 38" stroke="${c}" stroke-width="2.6" stroke-linecap="round"/>` +
    `<path d="M35 26 Q38 34 44 34 Q47 31 44 29" fill="none" stroke="${c}" stroke-width="2.4" stroke-linecap="round"/>`,
  gold: (c) => `<path d="M14 38 L18 30 L30 30 L34 38Z M30 38 L34 30 L46 30 L50 38Z M22 29 L26 21 L38 21 L42 29Z" fill="${c}" stroke="#4d3806" stroke-width="1.2"/>` +
    `<path d="M25 14 l2 -5 M30 12 v-6 M35 14 l-2 -5" stroke="${c}" stroke-width="2" stroke-linecap="round"/>`,
  pharaoh: (c) => `<path d="M17 40 L20 15 Q30 3 40 15 L43 40 L36 40 L35 28 Q30 32 25 28 L24 40Z" fill="${c}"/>` +
    `<path d="M21 20 H39 M20.5 25 H39.5 M20 31 H24.5 M35.5 31 H40 M19.5 36 H24 M36 36 H40.5" stroke="#102a5c" stroke-width="1.8"/>` +
    `<ellipse cx="30" cy="22" rx="5.5" ry="7" fill="#c98b55"/><path d="M28 30 h4 l-0.5 7 h-3z" fill="${c}"/>` +
    `<circle cx="30" cy="11" r="1.8" fill="#c0392b"/>`,
  nile: (c) => [12, 22, 32].map((y) => `<path d="M6 ${y} q6 -6 12 0 t12 0 t12 0 t12 0" fill="none" stroke="${c}" stroke-width="3" stroke-linecap="round"/>`).join("") +
    `<path d="M30 4 q3 4 0 7 q-3 -3 0 -7z" fill="#2e7d32"/>`,
  flood: (c) => `<path d="M4 34 q6 -6 12 0 t12 0 t12 0 t12 0 t12 0" fill="none" stroke="${c}" stroke-width="3"/>` +
    `<path d="M4 26 q6 -6 12 0 t12 0 t12 0 t12 0 t12 0" fill="none" stroke="${c}" stroke-width="3"/>` +
    `<path d="M30 4 L38 14 H33 V20 H27 V14 H22Z" fill="${c}"/>`,
  astronomy: (c) => `<path d="M30 6 L34 17 L46 17 L36.5 24 L40 36 L30 29 L20 36 L23.5 24 L14 17 L26 17Z" fill="${c}"/>` +
    `<circle cx="12" cy="8" r="2" fill="${c}"/><circle cx="49" cy="32" r="2" fill="${c}"/><circle cx="48" cy="7" r="1.5" fill="${c}"/>`,
  agriculture: (c) => `<path d="M30 40 V8" stroke="${c}" stroke-width="2.4"/>` +
    [10, 17, 24].map((y) => `<ellipse cx="25" cy="${y + 3}" rx="3" ry="6" transform="rotate(-30 25 ${y + 3})" fill="${c}"/><ellipse cx="35" cy="${y + 3}" rx="3" ry="6" transform="rotate(30 35 ${y + 3})" fill="${c}"/>`).join("") +
    `<ellipse cx="30" cy="7" rx="2.6" ry="5" fill="${c}"/>`,
  writing: (c) => `<rect x="14" y="8" width="32" height="30" rx="2" fill="${c}"/>` +
    `<rect x="10" y="6" width="6" height="34" rx="3" fill="#c9b27a"/><rect x="44" y="6" width="6" height="34" rx="3" fill="#c9b27a"/>` +
    `<path d="M20 14 h6 M29 14 h8 M20 20 h3 M26 20 h12 M20 26 h9 M32 26 h6 M20 32 h12" stroke="#1d6129" stroke-width="2.2" stroke-linecap="round"/>`,
  religion: (c) => `<ellipse cx="30" cy="13" rx="6" ry="8" fill="none" stroke="${c}" stroke-width="3.6"/>` +
    `<path d="M18 23 H42 M30 21 V41" stroke="${c}" stroke-width="4" stroke-linecap="round"/>`,
  art: (c) => `<path d="M24 6 H36 L34 10 Q44 16 42 28 Q40 38 30 40 Q20 38 18 28 Q16 16 26 10Z" fill="${c}"/>` +
    `<path d="M20 22 Q30 27 40 22 M19 29 Q30 34 41 29" stroke="#1d6129" stroke-width="1.8" fill="none"/>` +
    `<path d="M25 12 Q19 12 20 18 M35 12 Q41 12 40 18" stroke="${c}" stroke-width="2" fill="none"/>`,
  fortress: (c) => `<path d="M10 40 V14 H16 V19 H21 V14 H27 V19 H33 V14 H39 V19 H44 V14 H50 V40Z" fill="${c}"/>` +
    `<path d="M26 40 V31 Q30 26 34 31 V40Z" fill="#e6c88e"/>`,
  obelisk: (c) => `<path d="M30 3 L35 9 L37 40 H23 L25 9Z" fill="${c}"/><path d="M28 14 h4 M28 20 h4 M28 26 h4 M28 32 h4" stroke="#e6c88e" stroke-width="1.6"/>`,
  palace: (c) => `<path d="M8 15 L30 5 L52 15Z" fill="${c}"/><rect x="9" y="36" width="42" height="4" fill="${c}"/>` +
    [13, 22, 31, 40].map((x) => `<rect x="${x}" y="17" width="6" height="18" fill="${c}"/>`).join(""),
  pyramid: (c) => `<path d="M6 40 L30 6 L54 40Z" fill="${c}"/><path d="M30 6 L54 40 H36Z" fill="#2e1c0a" opacity="0.45"/>`,
  sphinx: (c) => `<path d="M6 40 V33 Q8 29 16 29 H34 L36 20 Q36 12 42 11 Q49 11 50 18 L51 29 L54 33 V40Z" fill="${c}"/>` +
    `<path d="M38 14 L36 24 M48 14 L51 24" stroke="${c}" stroke-width="3"/><circle cx="44" cy="18" r="1.4" fill="#e6c88e"/>`,
  statue: (c) => `<circle cx="30" cy="9" r="5" fill="${c}"/><path d="M24 14 h12 l-2 18 h-8z" fill="${c}"/>` +
    `<path d="M24 16 L20 26 M36 16 L40 26" stroke="${c}" stroke-width="3" stroke-linecap="round"/><rect x="20" y="33" width="20" height="7" fill="${c}"/>`,
  step_pyramid: (c) => `<path d="M6 40 V34 H10 V27 H16 V20 H22 V13 H38 V20 H44 V27 H50 V34 H54 V40Z" fill="${c}"/>`,
  temple: (c) => `<path d="M6 40 L9 8 H26 L28 40Z M32 40 L34 8 H51 L54 40Z" fill="${c}"/><rect x="26" y="16" width="8" height="5" fill="${c}"/>` +
    `<path d="M11 14 H24 M36 14 H49" stroke="#e6c88e" stroke-width="1.6"/>`,
  funeral: (c) => `<path d="M22 4 Q30 0 38 4 L40 14 Q42 26 37 40 H23 Q18 26 20 14Z" fill="${c}"/>` +
    `<path d="M24 18 H36 M23.5 24 H36.5 M24 30 H36" stroke="#5e140a" stroke-width="1.8"/><ellipse cx="30" cy="10" rx="4" ry="4.5" fill="#5e140a"/>`,
  drought: (c) => `<circle cx="30" cy="13" r="7" fill="${c}"/>` +
    `<path d="M30 2 v3 M19 13 h-3 M44 13 h-3 M22 5 l2 2 M38 5 l-2 2" stroke="${c}" stroke-width="2" stroke-linecap="round"/>` +
    `<path d="M6 30 H54 M14 30 L18 36 L15 40 M30 30 L27 35 L32 40 M44 30 L47 35 L43 40" stroke="${c}" stroke-width="2.2" fill="none"/>`,
  unrest: (c) => `<path d="M12 8 L44 38 M48 8 L16 38" stroke="${c}" stroke-width="3.6" stroke-linecap="round"/>` +
    `<path d="M38 29 L31 36 M22 29 L29 36" stroke="${c}" stroke-width="4" stroke-linecap="round"/>` +
    `<circle cx="46" cy="40" r="2.6" fill="${c}"/><circle cx="14" cy="40" r="2.6" fill="${c}"/>`,
  earthquake: (c) => `<path d="M4 30 H20 L25 22 L31 36 L36 26 L40 30 H56" stroke="${c}" stroke-width="3" fill="none" stroke-linejoin="round"/>` +
    `<rect x="12" y="8" width="10" height="9" transform="rotate(-18 17 12)" fill="${c}"/><rect x="36" y="6" width="10" height="10" transform="rotate(22 41 11)" fill="${c}"/>`,
};

// The scarab alone, for the legend that explains it.
export function keepMarkSVG() {
  return `<svg class="keep-legend" viewBox="44 1 14 14" width="18" height="18" aria-hidden="true">${SCARAB}</svg>`;
}

const SCARAB = `<g class="keep-mark"><circle cx="51" cy="8" r="6.5" fill="#1b1b1b" stroke="#ffd54a" stroke-width="1"/>` +
  `<ellipse cx="51" cy="9" rx="2.6" ry="3.2" fill="#2fb38a"/><circle cx="51" cy="5" r="1.4" fill="#2fb38a"/>` +
  `<path d="M47 7 l2 1 M47 11 l2 -1 M55 7 l-2 1 M55 11 l-2 -1" stroke="#2fb38a" stroke-width="0.9"/></g>`;

let uid = 0;

// An SVG tile. opts.edition chooses the printed name; opts.label=false hides it.
export function tileSVG(kind, opts = {}) {
  const cat = tileCategory(kind);
  const [c1, c2] = BG[kind] || BG[cat] || BG.monument;
  const ink = INK[kind] || INK[cat] || "#222";
  const name = tileName(kind, opts.edition || "original");
  const label = tileShort(kind, opts.edition || "original");
  const id = `g${++uid}`;
  const disaster = cat === "disaster";
  const border = disaster
    ? `<rect x="2" y="2" width="56" height="56" rx="6" fill="none" stroke="#000" stroke-width="4"/>`
    : `<rect x="1" y="1" width="58" height="58" rx="6" fill="none" stroke="rgba(0,0,0,.45)" stroke-width="1.5"/>`;
  const icon = (ICONS[kind] || (() => ""))(ink);
  const keep = KEPT.has(kind) ? SCARAB : "";
  const long = label.length > 8;
  const text = opts.label === false ? "" :
    `<rect x="${disaster ? 4 : 2}" y="44" width="${disaster ? 52 : 56}" height="${disaster ? 12 : 14}" fill="rgba(0,0,0,.42)"/>` +
    `<text x="30" y="54" text-anchor="middle" font-size="${long ? 8.5 : 10}" font-weight="700" fill="#fff" ` +
    `font-family="system-ui, sans-serif"${label.length > 10 ? ' textLength="50" lengthAdjust="spacingAndGlyphs"' : ""}>${esc(label)}</text>`;
  const keptTitle = KEPT.has(kind) ? ` — ${t("table.keepMark")}` : "";
  return `<svg class="tile-svg cat-${cat}" viewBox="0 0 60 60" role="img" aria-label="${esc(name)}">` +
    `<title>${esc(name + keptTitle)}</title>` +
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs>` +
    `<rect x="1" y="1" width="58" height="58" rx="6" fill="url(#${id})"/>` +
    `<g transform="translate(0 ${opts.label === false ? 7 : 1})">${icon}</g>${keep}${text}${border}</svg>`;
}

// A sun disc; faceDown draws the back of the disc.
export function sunSVG(n, faceDown = false) {
  const title = `${n} — ${t(faceDown ? "table.faceDown" : "table.faceUp")}`;
  if (faceDown) {
    return `<svg class="sun-svg down" viewBox="0 0 40 40" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>` +
      `<circle cx="20" cy="20" r="18" fill="#3b3530" stroke="#191512" stroke-width="2"/>` +
      `<circle cx="20" cy="20" r="13" fill="none" stroke="#6b625a" stroke-width="1.5" stroke-dasharray="3 3"/>` +
      `<text x="20" y="25" text-anchor="middle" font-size="13" font-weight="700" fill="#a59a8e" font-family="system-ui, sans-serif">${n}</text></svg>`;
  }
  const rays = Array.from({ length: 16 }, (_, i) => {
    const a = (i * Math.PI) / 8;
    return `${(20 + 19 * Math.cos(a)).toFixed(1)},${(20 + 19 * Math.sin(a)).toFixed(1)} ${(20 + 15 * Math.cos(a + 0.2)).toFixed(1)},${(20 + 15 * Math.sin(a + 0.2)).toFixed(1)}`;
  }).join(" ");
  return `<svg class="sun-svg up" viewBox="0 0 40 40" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>` +
    `<polygon points="${rays}" fill="#f0a020"/>` +
    `<circle cx="20" cy="20" r="15" fill="#ffd54a" stroke="#b36b00" stroke-width="1.5"/>` +
    `<text x="20" y="25.5" text-anchor="middle" font-size="${n >= 10 ? 14 : 16}" font-weight="800" fill="#5a2d00" font-family="system-ui, sans-serif">${n}</text></svg>`;
}

// The 2023 edition's sun boat: a golden papyrus barque carrying Ra's disc, on the river.
// label is its text alternative (where it stands on the Ra track).
export function boatSVG(label) {
  const id = `g${++uid}`;
  return `<svg class="boat-svg" viewBox="0 0 60 60" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
    `<defs><linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffd54a"/><stop offset="1" stop-color="#b36b00"/></linearGradient></defs>` +
    `<path d="M4 55 q6.5 -4 13 0 t13 0 t13 0 t13 0" fill="none" stroke="#1f6fa8" stroke-width="2.6" stroke-linecap="round"/>` +
    `<path d="M45 36 L51 52" stroke="#5a2d00" stroke-width="2.4" stroke-linecap="round"/>` +
    `<circle cx="30" cy="25" r="12" fill="#e2592a" stroke="#9c2a10" stroke-width="2.4"/>` +
    `<circle cx="30" cy="25" r="5" fill="#ffd54a" opacity=".9"/>` +
    `<path d="M2 28 Q6 47 22 48 H38 Q54 47 58 28 Q51 39 40 39 H20 Q9 39 2 28Z" fill="url(#${id})" stroke="#5a2d00" stroke-width="2" stroke-linejoin="round"/>` +
    `<path d="M2 28 Q0 20 7 18 M58 28 Q60 20 53 18" fill="none" stroke="#5a2d00" stroke-width="3" stroke-linecap="round"/>` +
    `<path d="M12 41 L14 45.5 M21 42 V47.5 M30 42 V48 M39 42 V47.5 M48 41 L46 45.5" stroke="#7a4a0a" stroke-width="1.4" stroke-linecap="round"/></svg>`;
}

// The mark of the Ra track's last space: the sun setting on the river (the epoch ends there).
export function boatEndSVG(label) {
  return `<svg class="boat-end-svg" viewBox="0 0 60 60" role="img" aria-label="${esc(label)}"><title>${esc(label)}</title>` +
    `<path d="M19 29 A11 11 0 0 1 41 29Z" fill="#9c2a10" opacity=".6"/>` +
    Array.from({ length: 5 }, (_, i) => {
      const a = Math.PI + ((i + 1) * Math.PI) / 6, x1 = 30 + 14.5 * Math.cos(a), y1 = 29 + 14.5 * Math.sin(a);
      const x2 = 30 + 20 * Math.cos(a), y2 = 29 + 20 * Math.sin(a);
      return `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="#9c2a10" stroke-width="2.6" stroke-linecap="round" opacity=".6"/>`;
    }).join("") +
    `<path d="M8 29 H52" stroke="#9c2a10" stroke-width="2.6" stroke-linecap="round" opacity=".75"/></svg>`;
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
