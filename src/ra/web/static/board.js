// Rendering a game position (a seat's View) as the table: tracks, centre sun, displays,
// game log, scoring tables and the final result. Shared by the table and the replay viewer.
import { t, tileName, eventText, SCORE_CATEGORIES, CIVS, MONUMENTS, TILE_COUNTS, playerName, join } from "./i18n.js";
import { tileSVG, sunSVG, esc, keepMarkSVG, boatSVG, boatEndSVG } from "./tiles.js";

const GROUPS = [
  ["gods", ["god"]],
  ["pharaohs", ["pharaoh"]],
  ["river", ["nile", "flood"]],
  ["civ", [...CIVS, "gold"]],
  ["monuments", MONUMENTS],
];

export function names(view) { return view.players.map((p) => playerName(p.name)); }

export function highestSun(p) {
  return Math.max(0, ...(p.suns || []), ...(p.used_suns || []));
}

// The Ra track, the centre sun and the auction track.
// opts: {edition, godTakes: Set of tile kinds takeable now, fresh: Set of auction indexes to highlight}
export function renderBoard(view, opts = {}) {
  const edition = opts.edition || "original";
  const len = view.ra_track_length;
  let raTrack;
  let raCount;
  let discards = "";
  if (edition === "2023") {
    ({ track: raTrack, count: raCount } = sunBoatTrack(view, opts));
    // The 2023 edition discards every Ra tile drawn (R1.2): all those no longer in the bag.
    const gone = view.unseen ? TILE_COUNTS.ra - (view.unseen.ra || 0) : view.ra_track;
    discards = `<div class="ra-discards"><span aria-hidden="true">${tileSVG("ra", { edition, label: false })}</span><span>${esc(t("table.raDiscarded", { n: gone }))}</span></div>`;
  } else {
    let ra = "";
    for (let i = 0; i < len; i++) {
      const filled = i < view.ra_track;
      const last = i === len - 1;
      ra += `<li class="ra-slot${filled ? " filled" : ""}${last ? " last" : ""}${filled && opts.freshRa && i === view.ra_track - 1 ? " fresh" : ""}">` +
        (filled ? tileSVG("ra", { edition, label: false }) : `<span class="slot-num">${i + 1}</span>`) + `</li>`;
    }
    raTrack = `<ol class="ra-track" style="--slots:${len}">${ra}</ol>`;
    raCount = t("table.raTrackCount", { n: view.ra_track, m: len });
  }
  let auction = "";
  const takes = opts.godTakes || new Set();
  for (let i = 0; i < 8; i++) {
    const kind = view.auction_track[i];
    if (kind) {
      const can = takes.has(kind);
      const fresh = opts.fresh && opts.fresh.has(i) ? " fresh" : "";
      const inner = tileSVG(kind, { edition }) ;
      auction += can
        ? `<li class="au-slot filled pickable${fresh}"><button type="button" class="tile-btn" data-act="god ${kind}" title="${esc(t("table.god", { tile: tileName(kind, edition) }))}" aria-label="${esc(t("table.god", { tile: tileName(kind, edition) }))}">${inner}</button></li>`
        : `<li class="au-slot filled${fresh}" data-tile="${kind}">${inner}</li>`;
    } else {
      auction += `<li class="au-slot"><span class="slot-num">${i + 1}</span></li>`;
    }
  }
  const a = view.auction;
  let auctionInfo = "";
  if (a) {
    const ns = names(view);
    auctionInfo = `<div class="auction-info"><strong>${esc(t("st.auction"))}:</strong> ${esc(t("st.raPlayer"))}: ${esc(ns[a.ra_player])}` +
      (a.high_bid ? ` · <span class="high-sun">${sunSVG(a.high_bid)}</span>${esc(t("st.high", { sun: a.high_bid, name: ns[a.high_bidder] }))}` : ` · ${esc(t("st.noHigh"))}`) + `</div>`;
  }
  return `<div class="board">` +
    `<div class="board-row ra-row"><div class="track-label"><span>${esc(t("table.raTrack"))}</span><small>${esc(raCount)}</small></div>` +
    `${raTrack}</div>` +
    `<div class="board-mid"><div class="center-sun"><span class="lbl">${esc(t("table.centerSun"))}</span>${sunSVG(view.center_sun)}</div>` +
    `<div class="board-facts"><div class="epoch-badge">${esc(t("table.epoch", { n: view.epoch }))}</div>` +
    `<div class="bag-count">${esc(t("table.bag", { n: view.tiles_in_bag }))}</div>${discards}</div></div>` +
    `<div class="board-row au-row"><div class="track-label"><span>${esc(t("table.auctionTrack"))}</span><small>${esc(t("table.auctionCount", { n: view.auction_track.length }))}</small></div>` +
    `<ol class="auction-track">${auction}</ol></div>${auctionInfo}</div>`;
}

// The 2023 edition's Ra track: the sun boat moves one space per Ra tile drawn this epoch, the
// tiles themselves being discarded (R1.2). Its start space lies one before the first tile space
// (our ruling), so it reaches the last space with the Ra tile that ends the epoch (R2.2).
export function sunBoatTrack(view, opts = {}) {
  const len = view.ra_track_length;
  const at = Math.min(view.ra_track, len);
  const label = t("table.boatCount", { n: at, m: len });
  let spaces = "";
  for (let i = 0; i <= len; i++) {
    const cls = ["boat-space"];
    if (i === 0) cls.push("start");
    if (i === len) cls.push("last");
    if (i < at) cls.push("passed");
    if (i === at) cls.push("boat-here");
    if (i === at && opts.freshRa && at > 0) cls.push("fresh");
    const name = i === 0 ? t("table.boatStart") : i === len ? t("table.boatEnd") : "";
    let inner = `<span class="slot-num">${i}</span>`;
    if (i === len) inner = boatEndSVG(name) + inner;
    if (i === at) inner += boatSVG(label);
    spaces += `<li class="${cls.join(" ")}" data-space="${i}"${name ? ` title="${esc(name)}"` : ""}>${inner}</li>`;
  }
  return {
    track: `<ol class="ra-track boat-track" style="--slots:${len + 1}" aria-label="${esc(label)}" data-boat="${at}">${spaces}</ol>`,
    count: label,
  };
}

// One player's display. opts: {me, toMove, connected, away, kind, account (the name links to the profile),
// discards: Set, fresh, lost: [kinds], edition,
// group: a named group, not a landmark (a page with many boards, the guide, would repeat "Player 1")}
export function renderPlayer(view, seat, opts = {}) {
  const p = view.players[seat];
  const pn = playerName(p.name);
  const edition = opts.edition || "original";
  const tiles = p.tiles || {};
  const isMe = opts.me === seat;
  // The replay follows a seat that may not be yours; a player named "You" needs no "YOU" badge
  // (the guided game showed "Du DU").
  const you = isMe && opts.you !== false && pn.toLocaleLowerCase() !== t("table.you").toLocaleLowerCase();
  const toMove = view.phase !== "over" && view.to_move === seat;
  const score = p.score === null || p.score === undefined
    ? `<span class="score hidden-score" title="${esc(t("table.scoreHidden"))}" aria-label="${esc(t("table.scoreHidden"))}">?</span>`
    : `<span class="score">${p.score}</span>`;
  let conn = "";
  if (opts.kind === "bot") {
    conn = `<span class="conn bot">⚙ ${esc(t("table.bot"))}</span>`;
    if (opts.thinking) conn += ` <span class="thinking" role="status"><span class="dots" aria-hidden="true"></span>${esc(t("table.thinking"))}</span>`;
  }
  else if (opts.forfeited) conn = `<span class="conn bot">⚙ ${esc(t("table.forfeited"))}</span>`;
  else if (opts.away) conn = `<span class="conn bot">⚙ ${esc(t("table.away"))}</span>`;
  else if (opts.connected === true) conn = `<span class="conn on">● ${esc(t("table.online"))}</span>`;
  else if (opts.connected === false) conn = `<span class="conn off">○ ${esc(t("table.offline"))}</span>`;
  const suns = [...(p.suns || [])].sort((x, y) => y - x).map((n) => `<span class="sun up">${sunSVG(n)}</span>`).join("") +
    [...(p.used_suns || [])].sort((x, y) => y - x).map((n) => `<span class="sun down">${sunSVG(n, true)}</span>`).join("");
  const discards = opts.discards || new Set();
  const groups = GROUPS.map(([g, kinds]) => {
    const chips = kinds.filter((k) => tiles[k]).map((k) => {
      const cnt = tiles[k] > 1 ? `<span class="cnt">×${tiles[k]}</span>` : "";
      const fresh = opts.fresh && opts.fresh.has(k) ? " fresh" : "";
      if (discards.has(k)) {
        const lbl = t("table.discard", { tile: tileName(k, edition) });
        return `<button type="button" class="chip pickable${fresh}" data-act="discard ${k}" title="${esc(lbl)}" aria-label="${esc(lbl)}">${tileSVG(k, { edition })}${cnt}</button>`;
      }
      return `<span class="chip${fresh}" data-tile="${k}">${tileSVG(k, { edition })}${cnt}</span>`;
    }).join("");
    return `<div class="group g-${g}"><h3>${esc(t("table.group." + g))}</h3><div class="chips">${chips || '<span class="none">—</span>'}</div></div>`;
  }).join("");
  const lost = opts.lost && opts.lost.length
    ? `<div class="lost-strip">${esc(t("table.tilesLost"))}: ${opts.lost.map((k) => `<span class="chip lost">${tileSVG(k, { edition })}</span>`).join("")}</div>` : "";
  const tag = opts.group ? "div" : "section";
  return `<${tag} class="player${isMe ? " me" : ""}${toMove ? " to-move" : ""}${opts.flash ? " flash" : ""}" data-seat="${seat}"${opts.group ? ' role="group"' : ""} aria-label="${esc(pn)}">` +
    `<header class="phead"><div class="pwho"><h2 class="pname">${toMove ? `<span class="turn-arrow" aria-hidden="true">▶</span>` : ""}${opts.account ? `<a class="profile-link" href="/u/${encodeURIComponent(p.name)}">${esc(pn)}</a>` : esc(pn)}</h2>` +
    (you ? `<span class="badge you">${esc(t("table.you"))}</span>` : "") +
    (toMove ? `<span class="badge move">${esc(t("table.toMove"))}</span>` : "") +
    (view.auction && view.auction.ra_player === seat ? `<span class="badge ra-badge">☀ ${esc(t("st.raPlayer"))}</span>` : "") + conn +
    `</div><span class="pscore"><span class="lbl">${esc(t("table.score"))}</span> ${score}</span></header>` +
    `<div class="suns-row"><span class="lbl">${esc(t("table.suns"))}</span><span class="suns">${suns || `<span class="none">${esc(t("table.noSuns"))}</span>`}</span></div>` +
    `<div class="groups">${groups}</div>${lost}</${tag}>`;
}

// The game log's lines (newest last), one <li> each.
export function renderLog(events, ns, you = null) {
  return events.map((ev) => {
    const cls = ev.kind === "epoch" || ev.kind === "epoch_end" || ev.kind === "game_over" ? " big" : "";
    const dis = ev.kind === "disaster" || ev.kind === "discard" ? " bad" : ev.kind === "win" ? " good" : "";
    const text = eventText(ev, ns, you);
    return `<li class="ev ev-${ev.kind}${cls}${dis}">${esc(text)}</li>`;
  });
}

// The status bar's "last move" line: the newest event that is not a score (the table and the
// replay both show it; `you`: the reader's seat, named as "you").
export function lastMoveLine(events, ns, you = null) {
  const last = [...events].reverse().find((e) => e.kind !== "score");
  return last ? t("table.lastMove", { text: eventText(last, ns, you) }) : "";
}

// Score events grouped by epoch: [{epoch, rows: [{seat, detail}]}].
export function scoringByEpoch(events, nPlayers) {
  const out = [];
  let epoch = 1;
  let cur = null;
  for (const ev of events) {
    if (ev.kind === "epoch_end") { epoch = (ev.detail && ev.detail[0]) || epoch; cur = null; }
    if (ev.kind === "score") {
      const ep = (ev.detail && ev.detail.epoch) || epoch;
      if (!cur || cur.epoch !== ep) { cur = { epoch: ep, rows: Array(nPlayers).fill(null) }; out.push(cur); }
      cur.rows[ev.seat] = ev.detail || "hidden";
    }
  }
  return out;
}

export function renderScoring(events, view) {
  const ns = names(view);
  const tables = scoringByEpoch(events, ns.length);
  if (!tables.length) return `<p class="muted">${esc(t("sc.none"))}</p>`;
  const cats = (ep) => SCORE_CATEGORIES.filter((c) => ep === 3 || (c !== "monuments" && c !== "suns"));
  return tables.map(({ epoch, rows }) => {
    const cs = cats(epoch);
    const col = (c) => `<th scope="col"><span class="full">${esc(t("sc." + c))}</span><abbr class="short" title="${esc(t("sc." + c))}">${esc(t("sc.short." + c))}</abbr></th>`;
    const head = `<tr><th scope="col">${esc(t("sc.player"))}</th>${cs.map(col).join("")}${col("total")}${col("score")}</tr>`;
    const body = rows.map((d, seat) => {
      if (d === null) return "";
      if (d === "hidden") {
        return `<tr class="hidden-row"><th scope="row">${esc(ns[seat])}</th>${cs.map(() => `<td>?</td>`).join("")}<td>?</td><td>? <small>(${esc(t("sc.hidden"))})</small></td></tr>`;
      }
      const sg = (x) => (x > 0 ? `+${x}` : String(x));
      return `<tr><th scope="row">${esc(ns[seat])}</th>${cs.map((c) => `<td class="${d[c] > 0 ? "pos" : d[c] < 0 ? "neg" : "zero"}">${sg(d[c])}</td>`).join("")}` +
        `<td class="tot">${sg(d.total)}</td><td class="sc-score"><span class="before">${d.before} → </span><strong>${d.after}</strong></td></tr>`;
    }).join("");
    return `<div class="score-table-wrap" data-epoch="${epoch}"><h3>${esc(t("sc.title", { n: epoch }))}</h3><table class="score-table"><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
  }).join("");
}

// The final result with the tie-break explained (R8.1). `summary` (the lobby's view of the
// table) carries the table's result: its winner, and the seats that forfeited, which rank last
// whatever their score (ra.table.game_result).
export function renderFinal(view, events, me, summary = null) {
  if (view.phase !== "over") return "";
  const ns = names(view);
  const over = [...events].reverse().find((e) => e.kind === "game_over");
  const gave = (i) => Boolean(summary && summary.seats && summary.seats[i] && summary.seats[i].forfeited);
  const ranking = view.players.map((p, i) => ({ i, name: playerName(p.name), score: p.score ?? 0, sun: highestSun(p), out: gave(i) }))
    .sort((a, b) => a.out - b.out || b.score - a.score || b.sun - a.sun);
  const stated = summary && summary.winner !== null && summary.winner !== undefined ? summary.winner : null;
  const winner = stated !== null ? stated : over ? over.seat : ranking[0].i;
  const w = ranking.find((r) => r.i === winner) || ranking[0];
  const tie = ranking.some((r) => r.i !== winner && !r.out && r.score === w.score);
  const out = ranking.filter((r) => r.out).map((r) => ns[r.i]);
  let headline;
  if (tie) headline = t("fin.tie", { score: w.score, name: ns[winner], sun: w.sun });
  else if (out.length) headline = winner === me ? t("fin.youWinForfeit", { out: join(out) }) : t("fin.winsForfeit", { name: ns[winner], out: join(out) });
  else headline = winner === me ? t("fin.youWin", { score: w.score }) : t("fin.wins", { name: ns[winner], score: w.score });
  const badge = (r) => (r.out ? ` <span class="badge">${esc(t("fin.forfeited"))}</span>` : "");
  const rows = ranking.map((r, k) => `<tr class="${r.i === winner ? "winner" : ""}"><td>${k + 1}</td><th scope="row">${r.i === winner ? "★ " : ""}${esc(r.name)}${r.i === me ? ` <span class="badge you">${esc(t("table.you"))}</span>` : ""}${badge(r)}</th><td class="num">${r.score}</td><td class="num">${r.sun}</td></tr>`).join("");
  return `<div class="final" role="status"><h2>${esc(t("fin.title"))}</h2><p class="final-headline">${esc(headline)}</p>` +
    `<table class="final-table"><thead><tr><th>${esc(t("fin.place"))}</th><th>${esc(t("sc.player"))}</th><th>${esc(t("sc.score"))}</th><th>${esc(t("fin.highSun"))}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

// Whose turn and why, in words.
export function statusLine(view, me, edition) {
  const ns = names(view);
  const who = view.to_move;
  const mine = who === me && me !== null && me !== undefined;
  const name = who !== null && who !== undefined ? ns[who] : "";
  switch (view.phase) {
    case "over": return t("st.over");
    case "action": {
      if (!mine) return t("st.action", { name });
      const meP = view.players[me];
      const hasGod = (meP.tiles || {}).god > 0 && view.auction_track.some((k) => k !== "god");
      if (view.auction_track.length >= 8 && !hasGod) return t("st.yourActionRaOnly");
      return hasGod ? t("st.yourActionGod") : t("st.yourAction");
    }
    case "bid": {
      const a = view.auction || {};
      if (mine && a.must_bid) return t("st.yourBidMust");
      const kind = a.kind || "voluntary";
      const high = a.high_bid ? t("st.high", { sun: a.high_bid, name: ns[a.high_bidder] }) : t("st.noHigh");
      // The Ra player bids last: then one sentence names them once.
      if (!mine && who === a.ra_player) return t("st.bidLast." + kind, { name, high });
      const why = a.ra_player === me ? t("st.whyYou." + kind) : t("st.why." + kind, { ra: ns[a.ra_player] });
      return mine ? t("st.yourBid", { why, high }) : t("st.bid", { name, why, high });
    }
    case "god": {
      const base = mine ? t("st.yourGod") : t("st.god", { name });
      // R3.5, "2008 disaster timing": the Disasters taken wait until the takes end.
      const waiting = (view.pending_disasters || []).map((k) => tileName(k, edition));
      return waiting.length ? `${base} ${t("st.godPending", { disasters: join(waiting) })}` : base;
    }
    case "discard": {
      const dis = tileName(view.pending_disaster || "unrest", edition);
      return mine ? t("st.yourDiscard", { disaster: dis, n: view.discards_left || 1 }) : t("st.discard", { name, disaster: dis });
    }
    default: return "";
  }
}

// The legend under the players: what the scarab on a tile means, and where every tile is explained.
export function renderLegend() {
  return `<span class="legend-item">${keepMarkSVG()} ${esc(t("legend.kept"))}</span>` +
    `<a href="/rules#tiles" target="_blank" rel="noopener">${esc(t("legend.tiles"))} ↗</a>`;
}
