/**
 * Playing with the keyboard alone.
 *
 *   Arrow keys, Tab      move between piles (Shift+Tab goes back)
 *   Enter or Space       pick up the focused pile's card(s); again on another pile to put
 *                        them there; on the stock, draw
 *   1-9, 0               how many cards to take from a column (0 means ten)
 *   Escape               put the picked-up cards back
 *   D                    draw from the stock (or turn the waste over)
 *   F                    send the focused (or picked-up) card to a foundation
 *   U, R, H, A, P        undo, redo, hint, auto-finish, pause (handled by the page)
 *
 * Piles are one roving tab stop: the focused pile has tabindex 0, the rest -1.
 * This module maps keys to controller actions; it knows no rules.
 */

import { paintHighlights } from "./render.js";

const DIRECTIONS = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

function isTyping(target) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/** The nearest pile in a direction from `from`, by the centres of the piles' slots. */
function neighbour(s, from, [dx, dy]) {
  const origin = s.layout.byId.get(from);
  const centre = (box) => ({ x: box.x + box.w / 2, y: box.y + box.h / 2 });
  const a = centre(origin);
  let best = null;
  let bestScore = Infinity;
  for (const box of s.layout.piles) {
    if (box.id === from || box.opponent) continue;
    const b = centre(box);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    const score = along + across * 2.5;
    if (score < bestScore) {
      best = box.id;
      bestScore = score;
    }
  }
  return best;
}

export function bindKeyboard(s, ctl) {
  const own = () => s.layout.piles.filter((box) => !box.opponent).map((box) => box.id);

  function faceUpRun(pile) {
    const cards = s.view.piles[pile];
    if (!Array.isArray(cards)) return 0;
    let run = 0;
    for (let i = cards.length - 1; i >= 0 && cards[i] != null; i--) run++;
    return run;
  }

  /** How many cards Enter picks up: the digit chosen, else the longest legal run. */
  function countFor(pile) {
    if (s.keyRun && s.keyRun.pile === pile) return s.keyRun.count;
    if (ctl.kindOf(pile) !== "tableau") return 1;
    const counts = ctl
      .legalMoves()
      .filter((m) => m.from === pile)
      .map((m) => m.count || 1);
    return counts.length ? Math.max(...counts) : 1;
  }

  function activate(pile) {
    if (s.selected) {
      const held = s.selected;
      if (held.pile === pile) {
        ctl.clearSelection();
        ctl.announce("Put back.");
      } else {
        ctl.attemptMove({ from: held.pile, to: pile, count: held.count });
      }
      return;
    }
    const kind = ctl.kindOf(pile);
    if (kind === "stock" && !("stock_top" in s.view)) {
      ctl.stockAction(pile);
      return;
    }
    const length = ctl.pileLength(pile);
    if (!length) {
      ctl.notice(`${s.layout.byId.get(pile).label} is empty.`);
      return;
    }
    const count = kind === "stock" ? 1 : Math.min(countFor(pile), length);
    const index = kind === "stock" ? length - 1 : length - count;
    if (!ctl.selectable(pile, index)) {
      ctl.notice("Those cards cannot be picked up.");
      return;
    }
    ctl.select(pile, index);
  }

  function chooseRun(pile, digit) {
    const wanted = digit === 0 ? 10 : digit;
    const run = faceUpRun(pile);
    if (ctl.kindOf(pile) !== "tableau" || !run) return;
    const count = Math.min(wanted, run);
    if (s.selected && s.selected.pile === pile) {
      ctl.select(pile, ctl.pileLength(pile) - count);
      return;
    }
    s.keyRun = { pile, count };
    paintHighlights(s);
    ctl.announce(`${count} card${count > 1 ? "s" : ""} chosen from ${s.layout.byId.get(pile).label}.`);
  }

  function onKey(event) {
    if (!s.view || !s.layout || event.defaultPrevented) return;
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    if (document.querySelector("dialog[open]")) return;
    const inTable = s.root.contains(document.activeElement);
    const key = event.key;
    const pile = s.focusPile;
    const config = s.config;

    if (key in DIRECTIONS && inTable) {
      const next = neighbour(s, pile, DIRECTIONS[key]);
      if (next) ctl.setFocus(next);
      event.preventDefault();
      return;
    }
    if (key === "Tab" && inTable) {
      const ids = own();
      const at = ids.indexOf(pile) + (event.shiftKey ? -1 : 1);
      // At either end Tab leaves the table as usual.
      if (at >= 0 && at < ids.length) {
        ctl.setFocus(ids[at]);
        event.preventDefault();
      }
      return;
    }
    if ((key === "Enter" || key === " ") && inTable) {
      event.preventDefault();
      activate(pile);
      return;
    }
    if (key === "Escape" && (s.selected || s.keyRun)) {
      ctl.clearSelection();
      ctl.announce("Put back.");
      event.preventDefault();
      return;
    }
    if (/^[0-9]$/.test(key) && inTable) {
      chooseRun(pile, Number(key));
      event.preventDefault();
      return;
    }
    const letter = key.toLowerCase();
    const actions = {
      d: () => ctl.stockAction(),
      f: () => {
        if (s.selected) ctl.toFoundation(s.selected.pile, null);
        else ctl.toFoundation(pile, null);
      },
      u: () => config.onUndo && config.onUndo(),
      r: () => config.onRedo && config.onRedo(),
      p: () => config.onPause && config.onPause(),
      h: () => config.onHint && config.onHint(),
      a: () => config.onAutoFinish && config.onAutoFinish(),
      "?": () => config.onHelp && config.onHelp(),
    };
    if (actions[letter]) {
      event.preventDefault();
      actions[letter]();
    }
  }

  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
