/**
 * The table's small public API: give it the server's views, it draws them and reports
 * the moves the player asks for. Like chessground, it holds no rules: legality comes
 * in as the view's "moves" list (used only to highlight and to pick a foundation for a
 * double-click), the words for piles come in as the game's description, and decisions
 * go out through `config.onMove`, whose promise the server settles.
 *
 *   const table = createTable(element, {onMove, onRefused, onNotice, onUndo, onHint, ...});
 *   table.describe(description); // pile labels, what fills an empty pile (from the payload)
 *   table.set(view, version);    // draw the server's view (animated)
 *   table.showHint(move);        // highlight a move for a few seconds
 *   table.destroy();             // unbind everything
 *
 * A move the player makes is drawn at once, its cards marked as pending, on top of
 * the server's last view; the server's next view (or its refusal) settles it.
 * This module knows nothing of sockets, HTTP or page controls.
 */

import { ensureSprite } from "./cards.js";
import { computeLayout } from "./layout.js";
import { celebrate, cascade } from "./anim.js";
import { render } from "./render.js";
import { bindPointer } from "./drag.js";
import { bindKeyboard } from "./keyboard.js";
import { bindActions } from "./actions.js";
import { predict } from "./predict.js";

/** The count of a move; the contract lets it default to 1. */
export function countOf(move) {
  return move.count || 1;
}

export function createTable(root, config = {}) {
  ensureSprite();
  root.classList.add("tbl");
  root.replaceChildren();
  const layer = (className) => {
    const el = document.createElement("div");
    el.className = className;
    return el;
  };
  const pileLayer = layer("tbl-piles");
  const cardLayer = layer("tbl-cards");
  const badgeLayer = layer("tbl-badges");
  const live = layer("visually-hidden");
  live.setAttribute("aria-live", "polite");
  root.append(pileLayer, cardLayer, badgeLayer, live);

  /** Everything the table knows; render.js, drag.js, keyboard.js and actions.js share it. */
  const s = {
    root,
    pileLayer,
    cardLayer,
    badgeLayer,
    live,
    config,
    description: config.description || null, // the game's describe(): labels, fills
    server: { view: null, version: -1 }, // the server's last word
    predictions: [], // moves sent and drawn ahead of the server: {move, ackVersion}
    pendingSpots: new Set(), // "pile#index" of cards drawn ahead of the server
    view: null, // the view being shown: the server's, with the predictions on top
    shownView: null, // the view the cards on screen were drawn from
    stale: false, // the server spoke during a drag; draw it when the cards are let go
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
    options: { leftHanded: false, cardSize: "fit", touch: false, ...(config.layoutOptions || {}) },
  };
  const unbinders = [];

  /**
   * The room for the table. A page that sizes the table itself (`fill`, as the play
   * and race pages do, so that they never scroll) gives its box; otherwise the table
   * takes the window's height below its top, or what `measure` says.
   */
  function measure() {
    if (config.fill) return { width: root.clientWidth, height: root.clientHeight };
    let box;
    if (config.measure) {
      box = config.measure(root);
    } else {
      const top = root.getBoundingClientRect().top + window.scrollY;
      box = { width: root.clientWidth, height: Math.max(300, window.innerHeight - top - 10) };
    }
    root.style.height = `${box.height}px`;
    return box;
  }

  /** Recompute the layout if the space, the game or the layout options changed. */
  function relayout() {
    if (!s.view) return;
    const box = measure();
    const o = s.options;
    const key = [s.view.game, s.view.player, s.view.options && s.view.options.draw, o.leftHanded, o.cardSize, o.touch, o.compactOpponent].join("/");
    if (s.layout && key === s.layoutKey && s.box && Math.abs(s.box.width - box.width) < 1 && Math.abs(s.box.height - box.height) < 1) {
      return;
    }
    s.box = box;
    s.layoutKey = key;
    s.layout = computeLayout(s.view, box, { ...o, description: s.description });
    root.style.setProperty("--cw", `${s.layout.cardWidth}px`);
    root.dataset.game = s.view.game;
  }

  /** Draw now (a drop must not wait a frame) or on the next animation frame. */
  function draw(animate = true, still = null) {
    cancelAnimationFrame(s.frame);
    s.frame = 0;
    relayout();
    render(s, { animate: s.animateNext && animate, still });
    s.animateNext = true;
  }

  function requestRender(animate = true) {
    s.animateNext = s.animateNext && animate;
    if (s.frame) return;
    s.frame = requestAnimationFrame(() => {
      s.frame = 0;
      draw(true);
    });
  }

  /** The shown view: the server's, with the moves still in flight laid on top. */
  function recompute() {
    let view = s.server.view;
    const spots = new Set();
    for (const entry of s.predictions) {
      const next = view && predict(view, entry.move);
      if (!next) continue;
      const length = next.piles[entry.move.to].length;
      for (let i = length - countOf(entry.move); i < length; i++) spots.add(`${entry.move.to}#${i}`);
      for (const key of [...spots]) {
        // Cards that left a pile are no longer pending there.
        const [pile, index] = key.split("#");
        if (pile === entry.move.from && Number(index) >= next.piles[pile].length) spots.delete(key);
      }
      view = next;
    }
    s.view = view;
    s.pendingSpots = spots;
  }

  function settle(entry) {
    const at = s.predictions.indexOf(entry);
    if (at < 0) return;
    s.predictions.splice(at, 1);
    recompute();
  }

  /**
   * Send a move and draw it at once. `still` are elements to put in place without
   * motion (the cards a drag let go). Resolves true when the server took it.
   */
  function sendMove(move, still = null) {
    if (!config.onMove) return Promise.resolve(false);
    const context = refusalContext(move);
    const entry = { move, ackVersion: null };
    s.predictions.push(entry);
    recompute();
    if (still) draw(true, still);
    else requestRender();
    return Promise.resolve(config.onMove(move)).then(
      (answer) => {
        const version = answer && typeof answer.version === "number" ? answer.version : null;
        // The server's state for this move follows its ack; until it is here, keep the picture.
        if (version == null || s.server.version >= version) {
          settle(entry);
          if (!s.drag) requestRender();
        } else {
          entry.ackVersion = version;
        }
        return true;
      },
      (error) => {
        settle(entry);
        if (!s.drag) requestRender();
        if (config.onRefused) config.onRefused(error, move, context);
        return false;
      },
    );
  }

  /** What a refusal sentence may name: the cards and piles of the move as shown. */
  function refusalContext(move) {
    const view = s.view;
    const labelOf = (id) => s.layout?.byId.get(id)?.label || id;
    const source = view && view.piles[move.from];
    const target = view && view.piles[move.to];
    const count = countOf(move);
    return {
      moving: Array.isArray(source) ? source[source.length - count] : view && view.stock_top,
      onto: Array.isArray(target) && target.length ? target[target.length - 1] : null,
      from: labelOf(move.from),
      to: labelOf(move.to),
      count,
      labelOf,
    };
  }

  const actions = bindActions(s, { requestRender, sendMove });
  unbinders.push(bindPointer(s, actions));
  unbinders.push(bindKeyboard(s, actions));
  const onResize = () => requestRender(false);
  window.addEventListener("resize", onResize);
  unbinders.push(() => window.removeEventListener("resize", onResize));
  if (typeof ResizeObserver === "function") {
    const observer = new ResizeObserver(() => requestRender(false));
    observer.observe(root);
    unbinders.push(() => observer.disconnect());
  }

  return {
    controller: actions,
    /** Show the server's view at `version`. During a drag it waits until the cards are let go. */
    set(view, version) {
      actions.clearHint();
      const first = !s.server.view;
      s.server = { view, version: typeof version === "number" ? version : Infinity };
      s.predictions = s.predictions.filter((p) => p.ackVersion == null || p.ackVersion > s.server.version);
      recompute();
      if (s.drag) {
        s.stale = true;
        return;
      }
      s.selected = null;
      s.targets = new Set();
      s.keyRun = null;
      requestRender(!first);
    },
    /** Forget moves in flight (a page that shows something else, such as a replay). */
    forgetPending() {
      s.predictions = [];
      recompute();
      requestRender();
    },
    describe(description) {
      s.description = description || null;
      s.layoutKey = "";
      requestRender(false);
    },
    /** Layout options: {leftHanded, cardSize: "small"|"fit"|"large", touch, compactOpponent}. */
    configure(options) {
      Object.assign(s.options, options);
      requestRender(false);
    },
    get view() {
      return s.view;
    },
    get serverView() {
      return s.server.view;
    },
    get pending() {
      return s.predictions.length;
    },
    showHint: actions.showHint,
    clearHint: actions.clearHint,
    focus() {
      if (s.focusPile) actions.setFocus(s.focusPile);
    },
    stockAction: actions.stockAction,
    announce: actions.announce,
    /** Make the foundations' top cards hop, for a win (a cascade unless motion is reduced). */
    celebrate() {
      const foundations = s.layout.piles.filter((box) => box.kind === "foundation");
      const tops = foundations.map((box) => s.cards.filter((el) => el.spot.pile === box.id).pop()).filter(Boolean);
      celebrate(tops);
      const all = foundations.flatMap((box) => s.cards.filter((el) => el.spot.pile === box.id).reverse());
      cascade(all, { width: root.clientWidth, height: root.clientHeight });
    },
    destroy() {
      cancelAnimationFrame(s.frame);
      actions.clearHint();
      for (const unbind of unbinders.splice(0)) unbind();
      root.replaceChildren();
    },
  };
}
