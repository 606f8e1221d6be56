/**
 * The table's small public API: give it views, it draws them and reports the moves
 * the player asks for. Like chessground, it holds no rules: legality comes in as the
 * view's "moves" list (used only to highlight and to pick a foundation for a
 * double-click) and decisions go out through `config.onMove`, whose promise the
 * server settles.
 *
 *   const table = createTable(element, {onMove, onNotice, onUndo, onHint, onAutoFinish});
 *   table.set(view);           // draw a new view (animated)
 *   table.showHint(move);      // highlight a move for a few seconds
 *   table.destroy();           // unbind everything
 *
 * It works for any game that layout.js knows, including Double's "p1.t3" piles.
 * This module knows nothing of sockets, HTTP or page controls.
 */

import { cardName, ensureSprite } from "./cards.js";
import { computeLayout } from "./layout.js";
import { celebrate, nudge } from "./anim.js";
import { paintHighlights, render } from "./render.js";
import { bindPointer } from "./drag.js";
import { bindKeyboard } from "./keyboard.js";

const HINT_MS = 3500;
const DOUBLE_CLICK_MS = 420;

/** The count of a move; the contract lets it default to 1. */
export function countOf(move) {
  return move.count || 1;
}

export function createTable(root, config = {}) {
  ensureSprite();
  root.classList.add("tbl");
  root.replaceChildren();
  const pileLayer = document.createElement("div");
  pileLayer.className = "tbl-piles";
  const cardLayer = document.createElement("div");
  cardLayer.className = "tbl-cards";
  const badgeLayer = document.createElement("div");
  badgeLayer.className = "tbl-badges";
  const live = document.createElement("div");
  live.className = "visually-hidden";
  live.setAttribute("aria-live", "polite");
  root.append(pileLayer, cardLayer, badgeLayer, live);

  /** Everything the table knows; render.js, drag.js and keyboard.js read and write it. */
  const s = {
    root,
    pileLayer,
    cardLayer,
    badgeLayer,
    config,
    view: null, // the view being shown
    shownView: null, // the view the cards on screen were drawn from
    pendingView: null, // a view that arrived during a drag
    layout: null,
    layoutKey: "",
    box: null,
    geometry: null,
    cards: [], // card elements on screen; each has el.spot {pile, index, code, x, y, w, h, z}
    pileEls: new Map(),
    badgeEls: new Map(),
    pileSignature: "",
    selected: null, // {pile, index, count}: picked up by click or keyboard
    targets: new Set(), // piles the selection may legally go to, from view.moves
    drag: null, // {pile, index, count, els, over}
    hint: null, // a move to highlight
    keyRun: null, // {pile, count}: how many cards the keyboard will pick up
    focusPile: null,
    lastClick: null,
    frame: 0,
    animateNext: true,
  };
  let hintTimer = 0;
  const unbinders = [];

  function measure() {
    if (config.measure) return config.measure(root);
    const top = root.getBoundingClientRect().top + window.scrollY;
    return {
      width: root.clientWidth,
      height: Math.max(300, window.innerHeight - top - 10),
    };
  }

  /** Recompute the layout if the space or the game changed. */
  function relayout() {
    if (!s.view) return;
    const box = measure();
    const key = [s.view.game, s.view.player, s.view.options && s.view.options.draw].join("/");
    if (
      s.layout &&
      key === s.layoutKey &&
      s.box &&
      Math.abs(s.box.width - box.width) < 1 &&
      Math.abs(s.box.height - box.height) < 1
    ) {
      return;
    }
    s.box = box;
    s.layoutKey = key;
    s.layout = computeLayout(s.view, box);
    root.style.setProperty("--cw", `${s.layout.cardWidth}px`);
    root.dataset.game = s.view.game;
  }

  /** Draw on the next animation frame; several updates in one frame draw once. */
  function requestRender(animate = true) {
    s.animateNext = s.animateNext && animate;
    if (s.frame) return;
    s.frame = requestAnimationFrame(() => {
      s.frame = 0;
      // A new layout alone (a banner above the table) still animates the cards that
      // moved; window resizes ask for no animation themselves.
      relayout();
      render(s, { animate: s.animateNext });
      s.animateNext = true;
    });
  }

  // --- what the rules allow, read from the view ------------------------------------

  const kindOf = (pileId) => s.layout && s.layout.byId.get(pileId)?.kind;
  const pileArray = (pileId) => {
    const content = s.view.piles[pileId];
    return Array.isArray(content) ? content : null;
  };
  const legalMoves = () => (s.view && s.view.moves) || [];

  function targetsFor(pile, count) {
    return new Set(
      legalMoves()
        .filter((m) => m.from === pile && countOf(m) === count)
        .map((m) => m.to),
    );
  }

  function stockIsFaceUp(pileId) {
    return kindOf(pileId) === "stock" && "stock_top" in s.view;
  }

  /** Can the card at `index` of `pile` be picked up (not: may it go anywhere)? */
  function selectable(pile, index) {
    const box = s.layout.byId.get(pile);
    if (!box || box.opponent || index == null) return false;
    if (s.view.game === "double" && s.view.player == null) return false;
    if (box.kind === "stock") return stockIsFaceUp(pile) && !!s.view.stock_top;
    const cards = pileArray(pile);
    if (!cards || index < 0 || index >= cards.length || cards[index] == null) return false;
    if (box.kind === "tableau") return true;
    return index === cards.length - 1;
  }

  function pileLength(pile) {
    const content = s.view.piles[pile];
    return typeof content === "number" ? content : (content || []).length;
  }

  function cardAt(pile, index) {
    if (kindOf(pile) === "stock") return s.view.stock_top || null;
    const cards = pileArray(pile);
    return cards ? cards[index] : null;
  }

  // --- actions -----------------------------------------------------------------------

  function announce(text) {
    live.textContent = "";
    // A fresh node each time, so that repeating the same words is announced again.
    requestAnimationFrame(() => {
      live.textContent = text;
    });
  }

  /** Tell the player something; the page shows it (and its live region reads it). */
  function notice(text) {
    if (config.onNotice) config.onNotice(text);
    else announce(text);
  }

  function select(pile, index) {
    const count = kindOf(pile) === "stock" ? 1 : pileLength(pile) - index;
    s.selected = { pile, index, count };
    s.targets = targetsFor(pile, count);
    s.keyRun = null;
    paintHighlights(s);
    const first = cardName(cardAt(pile, index));
    const label = s.layout.byId.get(pile).label;
    announce(
      `Picked up ${first}${count > 1 ? ` and ${count - 1} more` : ""} from ${label}. ` +
        (s.targets.size ? "Choose where to put it." : "It has no legal place right now."),
    );
  }

  function clearSelection() {
    if (!s.selected && !s.keyRun) return;
    s.selected = null;
    s.targets = new Set();
    s.keyRun = null;
    paintHighlights(s);
  }

  /** Send a move; on refusal the cards slide back and the reason is shown. */
  function attemptMove(move) {
    if (!config.onMove) return Promise.resolve(false);
    clearSelection();
    clearHint();
    const shown = s.view;
    return Promise.resolve(config.onMove(move)).then(
      () => {
        // The new state normally follows the answer at once; if it does not (a move
        // that changed nothing), put the cards back where the view says.
        setTimeout(() => {
          if (s.view === shown && !s.drag) requestRender();
        }, 900);
        return true;
      },
      (error) => {
        if (!s.drag) requestRender();
        const reason = (error && error.message) || String(error);
        if (config.onRefused) config.onRefused(reason, move);
        else announce(reason);
        return false;
      },
    );
  }

  /** Draw from a stock, or turn the waste over when the stock is empty. */
  function stockAction(stockId) {
    const stock = stockId || s.layout.piles.find((p) => p.kind === "stock" && !p.opponent)?.id;
    if (!stock) return;
    clearSelection();
    const moves = legalMoves();
    if (stockIsFaceUp(stock)) {
      // Casket: the stock's top card goes to a waste pile, the focused one if it may.
      const focused = s.focusPile;
      const move =
        moves.find((m) => m.from === stock && m.to === focused && kindOf(m.to) === "waste") ||
        moves.find((m) => m.from === stock && kindOf(m.to) === "waste");
      if (move) attemptMove(move);
      else notice("The stock has no card that can go to a waste pile.");
      return;
    }
    const waste = stock.replace("stock", "waste");
    const move =
      moves.find((m) => m.from === stock) ||
      (pileLength(stock) === 0 ? { from: waste, to: stock } : { from: stock, to: waste });
    attemptMove(move);
  }

  /** Send the card at `index` of `pile` to a foundation, if the view lists such a move. */
  function toFoundation(pile, index) {
    if (pile == null) return;
    const top = pileLength(pile) - 1;
    if (index == null) index = top;
    if (index !== top) {
      notice("Only the top card of a pile can go to a foundation.");
      return;
    }
    const move = legalMoves().find(
      (m) => m.from === pile && countOf(m) === 1 && kindOf(m.to) === "foundation",
    );
    if (move) {
      attemptMove(move);
      return;
    }
    const card = cardAt(pile, index);
    notice(card ? `No foundation can take the ${cardName(card)} now.` : "There is no card there.");
    const el = s.cards.find((c) => c.spot.pile === pile && c.spot.index === index);
    if (el) nudge(el);
  }

  /** A click or tap (pointer up without a drag) on a card or an empty pile. */
  function click(pile, index) {
    const now = performance.now();
    const last = s.lastClick;
    const isDouble =
      last && now - last.time < DOUBLE_CLICK_MS && last.pile === pile && last.index === index;
    s.lastClick = { time: now, pile, index };
    const box = s.layout.byId.get(pile);
    if (!box || box.opponent) return;
    setFocus(pile, false);
    if (box.kind === "stock" && !stockIsFaceUp(pile)) {
      s.lastClick = null;
      stockAction(pile);
      return;
    }
    if (isDouble && index != null) {
      s.lastClick = null;
      clearSelection();
      toFoundation(pile, index);
      return;
    }
    const sel = s.selected;
    if (sel) {
      if (pile === sel.pile) {
        if (index != null && index !== sel.index && selectable(pile, index)) select(pile, index);
        else clearSelection();
        return;
      }
      if (s.targets.has(pile) || !selectable(pile, index)) {
        attemptMove({ from: sel.pile, to: pile, count: sel.count });
        return;
      }
    }
    if (selectable(pile, index)) select(pile, index);
    else clearSelection();
  }

  function setFocus(pile, moveFocus = true) {
    if (!s.pileEls.has(pile)) return;
    s.focusPile = pile;
    for (const [id, el] of s.pileEls) el.tabIndex = id === pile ? 0 : -1;
    if (moveFocus) s.pileEls.get(pile).focus();
  }

  function showHint(move) {
    clearHint();
    if (!move) return;
    s.hint = move;
    paintHighlights(s);
    const from = s.layout.byId.get(move.from)?.label || move.from;
    const to = s.layout.byId.get(move.to)?.label || move.to;
    const count = countOf(move);
    const card = kindOf(move.from) === "stock" && !s.view.stock_top ? null : cardAt(move.from, pileLength(move.from) - count);
    announce(`Hint: ${card ? `move ${cardName(card)}${count > 1 ? ` and ${count - 1} more` : ""} from` : "draw from"} ${from} to ${to}.`);
    hintTimer = setTimeout(clearHint, HINT_MS);
  }

  function clearHint() {
    clearTimeout(hintTimer);
    if (!s.hint) return;
    s.hint = null;
    paintHighlights(s);
  }

  const controller = {
    s,
    announce,
    notice,
    select,
    selectable,
    clearSelection,
    attemptMove,
    stockAction,
    toFoundation,
    click,
    setFocus,
    targetsFor,
    legalMoves,
    kindOf,
    pileLength,
    cardAt,
    requestRender,
    /** Called by drag.js when a drag ends, to draw what arrived meanwhile. */
    flushPending() {
      if (s.pendingView) {
        s.view = s.pendingView;
        s.pendingView = null;
      }
      requestRender();
    },
  };

  unbinders.push(bindPointer(s, controller));
  unbinders.push(bindKeyboard(s, controller));
  const onResize = () => requestRender(false);
  window.addEventListener("resize", onResize);
  unbinders.push(() => window.removeEventListener("resize", onResize));
  if (typeof ResizeObserver === "function") {
    let lastWidth = 0;
    const observer = new ResizeObserver(() => {
      // The table sets its own height, so only a change of width is news.
      if (Math.abs(root.clientWidth - lastWidth) >= 1) {
        lastWidth = root.clientWidth;
        requestRender(false);
      }
    });
    observer.observe(root);
    unbinders.push(() => observer.disconnect());
  }

  return {
    controller,
    /** Show a new view. During a drag it waits until the cards are let go. */
    set(view) {
      clearHint();
      if (s.drag) {
        s.pendingView = view;
        return;
      }
      const first = !s.view;
      s.view = view;
      s.selected = null;
      s.targets = new Set();
      s.keyRun = null;
      requestRender(!first);
    },
    get view() {
      return s.view;
    },
    showHint,
    clearHint,
    focus() {
      if (s.focusPile) setFocus(s.focusPile);
    },
    stockAction,
    announce,
    /** Make the foundations' top cards hop, for a win. */
    celebrate() {
      const tops = s.layout.piles
        .filter((box) => box.kind === "foundation")
        .map((box) => s.cards.filter((el) => el.spot.pile === box.id).pop())
        .filter(Boolean);
      celebrate(tops);
    },
    destroy() {
      cancelAnimationFrame(s.frame);
      clearTimeout(hintTimer);
      for (const unbind of unbinders.splice(0)) unbind();
      root.replaceChildren();
    },
  };
}
