/**
 * What the player's gestures mean on the table: picking up, putting down, drawing,
 * sending a card up, hints and what the screen reader is told.
 *
 * It reads the shown view (the server's, with moves in flight on top) and sends moves
 * through `sendMove`; it never decides legality, only finds the server's listed move
 * that matches a gesture (the foundation a double-clicked card may go to, say).
 */

import { cardName } from "./cards.js";
import { nudge } from "./anim.js";
import { paintHighlights } from "./render.js";
import { cardsOf } from "./predict.js";

const HINT_MS = 3500;
const DOUBLE_CLICK_MS = 420;

const countOf = (move) => move.count || 1;

export function bindActions(s, { requestRender, sendMove }) {
  let hintTimer = 0;
  const config = s.config;

  const kindOf = (pileId) => s.layout && s.layout.byId.get(pileId)?.kind;
  const labelOf = (pileId) => s.layout?.byId.get(pileId)?.label || pileId;
  const pileArray = (pileId) => {
    const content = s.view.piles[pileId];
    return Array.isArray(content) ? content : null;
  };
  const legalMoves = () => (s.view && s.view.moves) || [];

  function targetsFor(pile, count) {
    return new Set(legalMoves().filter((m) => m.from === pile && countOf(m) === count).map((m) => m.to));
  }

  function stockIsFaceUp(pileId) {
    return kindOf(pileId) === "stock" && "stock_top" in s.view;
  }

  /** Can the card at `index` of `pile` be picked up (not: may it go anywhere)? */
  function selectable(pile, index) {
    const box = s.layout.byId.get(pile);
    if (!box || box.opponent || index == null) return false;
    if (s.view.player === null && box.owner) return false; // a spectator
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

  function announce(text) {
    s.live.textContent = "";
    // A fresh node each time, so that repeating the same words is announced again.
    requestAnimationFrame(() => {
      s.live.textContent = text;
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
    announce(
      `Picked up ${first}${count > 1 ? ` and ${count - 1} more` : ""} from ${labelOf(pile)}. ` +
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

  /** Send a move, drawn at once; on refusal the cards slide back and the reason is shown. */
  function attemptMove(move, still = null) {
    clearSelection();
    clearHint();
    // A move names the cards it carries, so that the server can refuse it as stale if
    // the table changed; draws and turning the waste over pick no cards.
    const picksCards = kindOf(move.from) !== "stock" && kindOf(move.to) !== "stock";
    const cards = picksCards ? cardsOf(s.view, move) : null;
    return sendMove(cards ? { ...move, cards } : move, still);
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
    attemptMove({ from: move.from, to: move.to });
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
    const move = legalMoves().find((m) => m.from === pile && countOf(m) === 1 && kindOf(m.to) === "foundation");
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
    const isDouble = last && now - last.time < DOUBLE_CLICK_MS && last.pile === pile && last.index === index;
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
    for (const [id, el] of s.pileEls) el.tabIndex = id === pile && config.focusable !== false ? 0 : -1;
    if (moveFocus) s.pileEls.get(pile).focus();
  }

  function showHint(move) {
    clearHint();
    if (!move) return;
    s.hint = move;
    paintHighlights(s);
    const count = countOf(move);
    const card =
      kindOf(move.from) === "stock" && !s.view.stock_top ? null : cardAt(move.from, pileLength(move.from) - count);
    const what = card ? `move ${cardName(card)}${count > 1 ? ` and ${count - 1} more` : ""} from` : "draw from";
    announce(`Hint: ${what} ${labelOf(move.from)} to ${labelOf(move.to)}.`);
    hintTimer = setTimeout(clearHint, HINT_MS);
  }

  function clearHint() {
    clearTimeout(hintTimer);
    if (!s.hint) return;
    s.hint = null;
    paintHighlights(s);
  }

  /** Called by drag.js when a drag ends, to draw what the server said meanwhile. */
  function flushPending() {
    s.stale = false;
    requestRender();
  }

  return {
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
    labelOf,
    pileLength,
    cardAt,
    requestRender,
    flushPending,
    showHint,
    clearHint,
  };
}
