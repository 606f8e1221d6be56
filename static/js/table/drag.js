/**
 * Pointer input for mouse, touch and pen alike: drag a card or a run, or click.
 *
 * A press that moves further than a few pixels becomes a drag: the cards follow the
 * pointer, the piles the view's moves allow light up, and letting go over a pile asks
 * for that move. A press that does not move is a click, handed to the controller
 * (click-then-click, double-click to a foundation, drawing from the stock).
 *
 * This module knows geometry and pointer events; the controller decides what a
 * gesture means, and the server whether it is legal.
 */

import { translate } from "./anim.js";
import { paintHighlights } from "./render.js";

const THRESHOLD = { mouse: 4, pen: 5, touch: 9 };

function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** The pile the dragged cards are over, preferring piles they may legally go to. */
export function dropTarget(s, rect, sourcePile) {
  let best = null;
  let bestScore = 0;
  for (const [id, place] of s.geometry) {
    if (id === sourcePile || place.box.opponent) continue;
    const top = place.top;
    // A little slack around the top card, more below a column where runs land.
    const zone = {
      x: top.x - top.w * 0.18,
      y: top.y - top.h * 0.15,
      w: top.w * 1.36,
      h: top.h * (place.box.kind === "tableau" ? 1.9 : 1.3),
    };
    const area = overlap(rect, zone);
    if (!area) continue;
    const score = area * (s.targets.has(id) ? 4 : 1);
    if (score > bestScore) {
      best = id;
      bestScore = score;
    }
  }
  return best;
}

export function bindPointer(s, ctl) {
  let press = null;

  function tablePoint(event) {
    const rect = s.root.getBoundingClientRect();
    return { x: event.clientX - rect.left + s.root.scrollLeft, y: event.clientY - rect.top + s.root.scrollTop };
  }

  function startDrag() {
    const { pile, index } = press;
    const isStock = ctl.kindOf(pile) === "stock";
    const count = isStock ? 1 : ctl.pileLength(pile) - index;
    const els = s.cards
      .filter((el) => el.spot.pile === pile && el.spot.index >= index)
      .sort((a, b) => a.spot.index - b.spot.index);
    if (!els.length) return false;
    for (const el of els) {
      for (const running of el.getAnimations()) running.cancel();
    }
    s.selected = null;
    s.keyRun = null;
    s.targets = ctl.targetsFor(pile, count);
    s.drag = {
      pile,
      index,
      count,
      els,
      grab: els.map((el) => ({ dx: el.spot.x - press.start.x, dy: el.spot.y - press.start.y })),
      over: null,
    };
    els.forEach((el, i) => {
      el.classList.add("dragging");
      el.style.zIndex = String(5000 + i);
    });
    paintHighlights(s);
    return true;
  }

  function follow(point) {
    const drag = s.drag;
    drag.els.forEach((el, i) => {
      const at = { x: point.x + drag.grab[i].dx, y: point.y + drag.grab[i].dy };
      // A copy: the spot objects also describe the piles' geometry.
      el.spot = { ...el.spot, x: at.x, y: at.y };
      el.style.transform = translate(at);
    });
    const lead = drag.els[0].spot;
    const over = dropTarget(s, { x: lead.x, y: lead.y, w: lead.w, h: lead.h }, drag.pile);
    if (over !== drag.over) {
      drag.over = over;
      paintHighlights(s);
    }
  }

  /**
   * The card (or empty pile) under a point, by where cards rest, not where they are
   * drawn mid-flight: a card still flying from the stock does not catch a click meant
   * for the stock.
   */
  function hitTest(point) {
    let best = null;
    for (const el of s.cards) {
      const spot = el.spot;
      if (!spot) continue;
      const inside = point.x >= spot.x && point.x < spot.x + spot.w && point.y >= spot.y && point.y < spot.y + spot.h;
      if (inside && (!best || spot.z >= best.spot.z)) best = el;
    }
    if (best) return { pile: best.spot.pile, index: best.spot.index };
    for (const [id, place] of s.geometry) {
      const r = place.rect;
      if (point.x >= r.x && point.x < r.x + r.w && point.y >= r.y && point.y < r.y + r.h) return { pile: id, index: null };
    }
    return null;
  }

  function onDown(event) {
    if (press || s.drag || !s.view || !s.geometry) return;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    const hit = hitTest(tablePoint(event));
    if (!hit) return;
    const { pile, index } = hit;
    // No text selection, no native image drag, no focus ring from a mouse press.
    event.preventDefault();
    press = {
      id: event.pointerId,
      type: event.pointerType,
      start: tablePoint(event),
      pile,
      index,
      draggable: ctl.selectable(pile, index),
      dragging: false,
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
  }

  function onMove(event) {
    if (!press || event.pointerId !== press.id) return;
    const point = tablePoint(event);
    if (!press.dragging) {
      const distance = Math.hypot(point.x - press.start.x, point.y - press.start.y);
      if (!press.draggable || distance < (THRESHOLD[press.type] || 5)) return;
      if (!startDrag()) return;
      press.dragging = true;
    }
    event.preventDefault();
    follow(point);
  }

  function release() {
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    press = null;
  }

  function endDrag() {
    const drag = s.drag;
    for (const el of drag.els) el.classList.remove("dragging");
    s.drag = null;
    s.targets = new Set();
    paintHighlights(s);
    return drag;
  }

  function onUp(event) {
    if (!press || event.pointerId !== press.id) return;
    const wasDragging = press.dragging;
    const { pile, index } = press;
    release();
    if (!wasDragging) {
      ctl.click(pile, index);
      return;
    }
    const drag = endDrag();
    if (drag.over && drag.over !== drag.pile) {
      // The cards stay where they were let go, in their new pile, until the server answers.
      s.stale = false;
      ctl.attemptMove({ from: drag.pile, to: drag.over, count: drag.count }, new Set(drag.els));
    } else {
      // Let go over nothing: the cards slide home.
      ctl.flushPending();
    }
  }

  function onCancel(event) {
    if (!press || event.pointerId !== press.id) return;
    const wasDragging = press.dragging;
    release();
    if (wasDragging) {
      endDrag();
      ctl.flushPending();
    }
  }

  const noMenu = (event) => {
    if (event.target.closest(".card")) event.preventDefault();
  };
  s.root.addEventListener("pointerdown", onDown);
  s.root.addEventListener("contextmenu", noMenu);
  return () => {
    release();
    s.root.removeEventListener("pointerdown", onDown);
    s.root.removeEventListener("contextmenu", noMenu);
  };
}
