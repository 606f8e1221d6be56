/**
 * Draws a view: works out where every card belongs, then changes only what differs.
 *
 * Card elements are kept from one view to the next and matched by card text, so a
 * card that moves is the same element sliding from its old place (see anim.js).
 * Face-down cards have no identity; they are matched by place. The stock is a count,
 * drawn as one card with a depth shadow and a badge.
 *
 * This module reads the table state (see table.js) and writes the DOM. It never
 * decides whether a move is legal; highlights come from the view's "moves" list.
 */

import { BACK_SVG, cardName, faceSVG, parseCard } from "./cards.js";
import { leave, slide, visiblePoint } from "./anim.js";
import { CAPTIONS_FROM, COMPACT_BELOW, FAN } from "./layout.js";

/** The cards of one pile as {index, code} (code null when face down), bottom first. */
export function pileCards(view, box) {
  const content = view.piles[box.id];
  if (typeof content === "number") {
    // A stock: only its count is known, except Casket's face-up stock top.
    if (!content) return [];
    const top = box.kind === "stock" && "stock_top" in view ? view.stock_top : null;
    return [{ index: content - 1, code: top || null }];
  }
  return (content || []).map((code, index) => ({ index, code }));
}

function seatPrefix(pileId) {
  const match = /^p\d\./.exec(pileId);
  return match ? match[0] : "";
}

/** The stock a pile's cards come from and go back to (for entry and exit motion). */
export function stockOf(pileId) {
  return `${seatPrefix(pileId)}stock`;
}

const TOUCH_STRIP = 44;

function fanDown(box, cards) {
  const h = box.h;
  let up = (box.compact ? FAN.upCompact : FAN.up) * h;
  // On a touch screen a covered card shows a strip a finger can hit, where there is room.
  if (box.touch && !box.opponent) up = Math.max(up, TOUCH_STRIP);
  let down = FAN.down * h;
  const minUp = (box.compact ? FAN.minUpCompact : FAN.minUp) * h;
  const minDown = FAN.minDown * h;
  let ups = 0;
  let downs = 0;
  for (let i = 0; i < cards.length - 1; i++) {
    if (cards[i].code == null) downs++;
    else ups++;
  }
  // Squeeze a tall column to fit: face-down cards first, they show nothing anyway.
  const room = box.bottom - box.y - h;
  if (ups * up + downs * down > room && downs) {
    down = Math.max(minDown, (room - ups * up) / downs);
  }
  if (ups * up + downs * down > room && ups) {
    up = Math.max(minUp, (room - downs * down) / ups);
  }
  const offsets = [];
  let y = 0;
  for (const card of cards) {
    offsets.push(y);
    y += card.code == null ? down : up;
  }
  return offsets;
}

/** Pixel places of one pile's cards, plus the pile's whole extent. */
function placePile(box, cards) {
  const n = cards.length;
  let offsets;
  let horizontal = false;
  if (box.fan === "down" && box.show) {
    const step = (box.compact ? FAN.upCompact : FAN.up) * box.h * 0.8;
    const first = Math.max(0, n - box.show);
    offsets = cards.map((_, i) => Math.max(0, i - first) * step);
  } else if (box.fan === "down") {
    offsets = fanDown(box, cards);
  } else if (box.fan === "right" || box.fan === "left") {
    const first = Math.max(0, n - box.show);
    const sign = box.fan === "left" ? -1 : 1;
    offsets = cards.map((_, i) => sign * Math.max(0, i - first) * FAN.right * box.w);
    horizontal = true;
  } else {
    offsets = cards.map(() => 0);
  }
  const slots = cards.map((card, i) => ({
    pile: box.id,
    index: card.index,
    code: card.code,
    x: box.x + (horizontal ? Math.round(offsets[i]) : 0),
    y: box.y + (horizontal ? 0 : Math.round(offsets[i])),
    w: box.w,
    h: box.h,
    z: 10 + card.index,
  }));
  const last = slots[slots.length - 1];
  const left = last ? Math.min(box.x, last.x) : box.x;
  const right = last ? Math.max(box.x, last.x) + box.w : box.x + box.w;
  const rect = { x: left, y: box.y, w: right - left, h: last ? last.y + box.h - box.y : box.h };
  const top = last ? { x: last.x, y: last.y, w: box.w, h: box.h } : { x: box.x, y: box.y, w: box.w, h: box.h };
  return { slots, rect, top };
}

/** Where every card goes: fills s.geometry (pile id -> {box, slots, rect, top}). */
function computeGeometry(s) {
  const geometry = new Map();
  for (const box of s.layout.piles) {
    const place = placePile(box, pileCards(s.view, box));
    // A squared pile of several cards shows its depth under the top card.
    const last = place.slots[place.slots.length - 1];
    if (last && box.fan === "none" && countOf(s.view, box.id) > 1) last.deep = true;
    // Cards lying exactly under two or more others cannot be seen; hiding them keeps
    // their shadows from adding up into a dark edge.
    place.slots.forEach((slot, i) => {
      const above = place.slots[i + 2];
      slot.buried = !!above && above.x === slot.x && above.y === slot.y;
    });
    geometry.set(box.id, { box, ...place });
  }
  return geometry;
}

function countOf(view, pileId) {
  const content = view.piles[pileId];
  return typeof content === "number" ? content : (content || []).length;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** What a screen reader says about a pile. */
export function describePile(view, box) {
  const content = view.piles[box.id];
  if (typeof content === "number") {
    let text = `${box.label}, ${plural(content, "card")}`;
    if (box.kind === "stock" && view.stock_top) text += `, top: ${cardName(view.stock_top)}`;
    return text;
  }
  const cards = content || [];
  if (!cards.length) return `${box.label}, empty`;
  if (box.kind === "tableau") {
    const hidden = cards.filter((c) => c == null).length;
    const shown = cards.filter((c) => c != null).map(cardName).join(", ");
    return `${box.label}, ${hidden ? `${hidden} face-down, then ` : ""}${shown}`;
  }
  return `${box.label}, ${plural(cards.length, "card")}, top: ${cardName(cards[cards.length - 1])}`;
}

// What an empty pile shows, from the game's description of what may fill it.
const FILL_MARKS = { king: "K", ace: "A" };

function emptyMark(s, box) {
  if (box.kind === "stock") {
    const waste = box.id.replace("stock", "waste");
    const recycle = (s.view.moves || []).some((m) => m.from === waste && m.to === box.id);
    return recycle ? "↻" : "";
  }
  const described = s.description && s.description.piles && s.description.piles[box.id.replace(/^p\d\./, "")];
  const fills = box.fills || (described && described.fills);
  return FILL_MARKS[fills] || "";
}

let cardSerial = 0;

function makeCard(layer) {
  const el = document.createElement("div");
  el.className = "card";
  el.id = `card-${++cardSerial}`;
  el.setAttribute("role", "img");
  el.spot = null;
  el.face = undefined;
  layer.appendChild(el);
  return el;
}

function paintCard(el, slot, seatOfPile) {
  if (el.face !== slot.code) {
    el.face = slot.code;
    if (slot.code == null) {
      el.innerHTML = BACK_SVG;
      el.classList.add("back");
    } else {
      el.innerHTML = faceSVG(slot.code);
      el.classList.remove("back");
    }
    el.setAttribute("aria-label", cardName(slot.code));
    el.dataset.card = slot.code || "";
    const card = parseCard(slot.code);
    el.classList.toggle("owner-1", !!card && card.owner === 1);
    el.classList.toggle("owner-2", !!card && card.owner === 2);
  }
  // Seat 2's cards have red backs, everyone else's blue.
  el.classList.toggle("back-2", seatOfPile === 2);
  el.dataset.pile = slot.pile;
  el.dataset.index = String(slot.index);
  if (!el.spot || el.spot.w !== slot.w || el.spot.h !== slot.h) {
    el.style.width = `${slot.w}px`;
    el.style.height = `${slot.h}px`;
  }
  el.classList.toggle("compact", slot.w < COMPACT_BELOW);
  el.classList.toggle("deep", !!slot.deep);
  el.classList.toggle("buried", !!slot.buried);
  el.style.zIndex = String(slot.z);
}

function seatNumber(pileId) {
  const match = /^p(\d)\./.exec(pileId);
  return match ? Number(match[1]) : null;
}

/**
 * Pair the wanted slots with the card elements on screen.
 * Returns {pairs: [[slot, el|null]], leftovers: [el]}.
 */
function matchCards(previous, slots) {
  const key = (pile, index) => `${pile}#${index}`;
  const byPlace = new Map();
  const byCode = new Map();
  for (const el of previous) {
    byPlace.set(key(el.spot.pile, el.spot.index), el);
    if (el.spot.code != null) {
      if (!byCode.has(el.spot.code)) byCode.set(el.spot.code, []);
      byCode.get(el.spot.code).push(el);
    }
  }
  const used = new Set();
  const found = new Array(slots.length).fill(null);
  const take = (i, el) => {
    found[i] = el;
    used.add(el);
  };
  // 1. Same place, same face: nothing happened to this card.
  slots.forEach((slot, i) => {
    const el = byPlace.get(key(slot.pile, slot.index));
    if (el && !used.has(el) && el.spot.code === slot.code) take(i, el);
  });
  // 2. A face-up card that moved: the same card text elsewhere (same pile first).
  slots.forEach((slot, i) => {
    if (found[i] || slot.code == null) return;
    const candidates = (byCode.get(slot.code) || []).filter((el) => !used.has(el));
    if (!candidates.length) return;
    const samePile = candidates.find((el) => el.spot.pile === slot.pile);
    take(i, samePile || candidates[0]);
  });
  // 3. Same place, other face: a card turned over (or turned back by an undo).
  slots.forEach((slot, i) => {
    if (found[i]) return;
    const el = byPlace.get(key(slot.pile, slot.index));
    if (el && !used.has(el)) take(i, el);
  });
  // 4. A face-down card in the same pile, at another height (a stock getting smaller).
  slots.forEach((slot, i) => {
    if (found[i] || slot.code != null) return;
    const el = previous.find((e) => !used.has(e) && e.spot.pile === slot.pile && e.spot.code == null);
    if (el) take(i, el);
  });
  return {
    pairs: slots.map((slot, i) => [slot, found[i]]),
    leftovers: previous.filter((el) => !used.has(el)),
  };
}

function ensurePileElements(s) {
  const signature = s.layout.piles.map((p) => `${p.id}:${p.kind}`).join(",");
  if (s.pileSignature === signature) return;
  s.pileSignature = signature;
  for (const el of s.pileEls.values()) el.remove();
  for (const el of s.badgeEls.values()) el.remove();
  s.pileEls.clear();
  s.badgeEls.clear();
  for (const box of s.layout.piles) {
    const el = document.createElement("div");
    el.className = `pile pile-${box.kind}`;
    el.dataset.pile = box.id;
    el.setAttribute("role", "group");
    el.tabIndex = -1;
    if (box.badge) {
      // Badges live in their own layer above the cards: a pile element is moved with a
      // transform, which would trap a badge beneath the pile's own cards.
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.dataset.pile = box.id;
      badge.setAttribute("aria-hidden", "true");
      s.badgeLayer.appendChild(badge);
      s.badgeEls.set(box.id, badge);
    }
    if (box.caption) {
      // A word under an unusual pile (Casket's jewels, stock and wastes); the pile's
      // aria-label says it too.
      const caption = document.createElement("span");
      caption.className = "caption";
      caption.textContent = box.caption;
      caption.setAttribute("aria-hidden", "true");
      el.appendChild(caption);
    }
    s.pileLayer.appendChild(el);
    s.pileEls.set(box.id, el);
  }
  if (!s.focusPile || !s.pileEls.has(s.focusPile)) s.focusPile = s.layout.piles[0].id;
}

function paintPiles(s) {
  const view = s.view;
  for (const [id, place] of s.geometry) {
    const el = s.pileEls.get(id);
    const { box, rect } = place;
    el.style.transform = `translate(${rect.x}px, ${rect.y}px)`;
    el.style.width = `${rect.w}px`;
    el.style.height = `${rect.h}px`;
    el.style.setProperty("--pw", `${box.w}px`);
    el.style.setProperty("--ph", `${box.h}px`);
    el.classList.toggle("opponent", !!box.opponent);
    el.classList.toggle("captioned", s.layout.cardWidth >= CAPTIONS_FROM);
    const count = countOf(view, id);
    el.classList.toggle("empty", count === 0);
    el.dataset.mark = count === 0 ? emptyMark(s, box) : "";
    el.dataset.count = String(count);
    el.tabIndex = id === s.focusPile && s.config.focusable !== false ? 0 : -1;
    el.setAttribute("aria-label", describePile(view, box));
    const badge = s.badgeEls.get(id);
    if (badge) {
      badge.textContent = String(count);
      badge.hidden = box.kind !== "stock" && count < 2;
      badge.classList.toggle("opponent", !!box.opponent);
      badge.style.transform = `translate(${box.x + box.w}px, ${box.y + box.h}px)`;
    }
  }
}

/**
 * Bring the screen in line with s.view. With `animate`, moved cards slide from where
 * they were seen; without (a resize), everything jumps into place.
 */
export function render(s, { animate = true, still = null } = {}) {
  if (!s.view || !s.layout) return;
  ensurePileElements(s);
  const previousView = s.shownView;
  s.geometry = computeGeometry(s);
  const slots = [];
  for (const place of s.geometry.values()) slots.push(...place.slots);
  const { pairs, leftovers } = matchCards(s.cards, slots);

  // Cards that changed pile towards a foundation all at once (auto-finish) go one by one.
  const toFoundation = pairs.filter(
    ([slot, el]) => el && el.spot.pile !== slot.pile && s.layout.byId.get(slot.pile).kind === "foundation",
  );
  const stagger = toFoundation.length > 2 ? 45 : 0;
  const order = new Map(toFoundation.map(([slot], i) => [slot, i]));

  let height = s.layout.height;
  const cards = [];
  for (const [slot, existing] of pairs) {
    let el = existing;
    let from;
    let flip = false;
    if (el) {
      from = visiblePoint(el, el.spot);
      flip = el.face === null && slot.code != null;
    } else {
      el = makeCard(s.cardLayer);
      // A new card comes out of its stock when that stock got smaller, else appears.
      const stock = s.geometry.get(stockOf(slot.pile));
      const stockShrank =
        previousView && stock && countOf(s.view, stock.box.id) < countOf(previousView, stock.box.id);
      from = stockShrank && slot.pile !== stock.box.id ? { x: stock.box.x, y: stock.box.y } : slot;
      flip = stockShrank && slot.code != null;
    }
    paintCard(el, slot, seatNumber(slot.pile));
    el.classList.toggle("pending", s.pendingSpots.has(`${slot.pile}#${slot.index}`));
    el.spot = slot;
    if (animate && !(still && still.has(el))) {
      slide(el, from, slot, { flip, z: slot.z, delay: (order.get(slot) || 0) * stagger });
    } else {
      slide(el, slot, slot, { z: slot.z });
    }
    height = Math.max(height, slot.y + slot.h + 8);
    cards.push(el);
  }
  for (const el of leftovers) {
    // Gone from view: back into a stock that grew (turning the waste over, an undone
    // draw), or simply away.
    const stock = s.geometry.get(stockOf(el.spot.pile));
    const stockGrew =
      previousView && stock && countOf(s.view, stock.box.id) > countOf(previousView, stock.box.id);
    if (animate) leave(el, stockGrew ? { x: stock.box.x, y: stock.box.y } : null);
    else el.remove();
  }
  s.cards = cards;
  s.shownView = s.view;
  // The table keeps the height the page gives it; a taller layout scrolls inside it.
  s.pileLayer.style.height = `${height}px`;
  paintPiles(s);
  paintHighlights(s);
}

/** Highlight classes only: selection, hint, legal targets, drop target, run preview. */
export function paintHighlights(s) {
  if (!s.geometry) return;
  const selection = s.drag || s.selected;
  const marks = new Map(); // element -> Set of classes
  const mark = (el, cls) => {
    if (!el) return;
    if (!marks.has(el)) marks.set(el, new Set());
    marks.get(el).add(cls);
  };
  const cardsOf = (pileId, fromIndex) =>
    s.cards.filter((el) => el.spot.pile === pileId && el.spot.index >= fromIndex);
  const topCard = (pileId) => {
    const pileCardsNow = s.cards.filter((el) => el.spot.pile === pileId);
    return pileCardsNow[pileCardsNow.length - 1];
  };
  const markPile = (pileId, cls) => {
    mark(s.pileEls.get(pileId), cls);
    mark(topCard(pileId), cls);
  };
  if (selection) {
    for (const el of cardsOf(selection.pile, selection.index)) mark(el, "selected");
    for (const target of s.targets || []) markPile(target, "target");
  }
  if (s.drag && s.drag.over) markPile(s.drag.over, "drop");
  if (s.hint) {
    const source = s.view.piles[s.hint.from];
    if (Array.isArray(source)) {
      for (const el of cardsOf(s.hint.from, source.length - (s.hint.count || 1))) mark(el, "hint");
    } else {
      mark(s.pileEls.get(s.hint.from), "hint");
      mark(topCard(s.hint.from), "hint");
    }
    markPile(s.hint.to, "hint-to");
  }
  if (s.keyRun && !selection) {
    const pile = s.view.piles[s.keyRun.pile];
    if (Array.isArray(pile)) {
      for (const el of cardsOf(s.keyRun.pile, pile.length - s.keyRun.count)) mark(el, "run");
    }
  }
  const all = ["selected", "target", "drop", "hint", "hint-to", "run"];
  for (const el of [...s.cards, ...s.pileEls.values()]) {
    const wanted = marks.get(el);
    for (const cls of all) el.classList.toggle(cls, !!wanted && wanted.has(cls));
  }
}
