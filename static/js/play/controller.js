/**
 * The play page's controller: the game's socket, the changes in flight and the
 * server's state. Views subscribe to it; they never talk to the socket themselves.
 *
 *   const game = createGameController(initial, {onState, onStatus, onGone, onMoved});
 *   game.move(move)       // resolves on the ack, rejects with the refusal
 *   game.undo(); game.redo(); game.autoFinish(); game.abandon()
 *   game.pause(); game.resume()   // the server's clock: a paused span is not play time
 *   game.current          // the last state the server sent
 *
 * A move carries the cards it moves (when the server reads them) and the version it
 * was made on: the server's last version plus the changes still in flight before it.
 */

import { api, GameSocket } from "../net.js";

// Changes that add exactly one version each when the server takes them.
const ONE_STEP = new Set(["move", "undo", "redo"]);

export function createGameController(initial, handlers = {}) {
  let current = initial;
  const listeners = new Set();
  const socket = new GameSocket(`/ws/games/${initial.id}/`, {
    onState(message) {
      const before = current;
      current = message;
      for (const listener of listeners) listener(message, before);
    },
    onStatus: (status, pending) => handlers.onStatus && handlers.onStatus(status, pending),
    onGone: () => handlers.onGone && handlers.onGone(),
    onMoved: (text) => handlers.onMoved && handlers.onMoved(text),
    onProblem: (text, code) => handlers.onProblem && handlers.onProblem(text, code),
  });
  socket.version = initial.version;

  /** The version a new change is made on: all in flight must land first. */
  function expectedVersion() {
    const waiting = socket.waiting;
    if (!waiting.every((message) => ONE_STEP.has(message.type))) return undefined;
    // An ack may have come in before the state it made: that change is no longer
    // waiting, so count from the version it named.
    return Math.max(current.version, socket.acked) + waiting.length;
  }

  // The engine reads a move's "cards" once the server describes its games (the same
  // release); before that, a move names piles only.
  const readsCards = () => !!current.describe;

  function move(wanted) {
    const sent = { from: wanted.from, to: wanted.to };
    if (wanted.count && wanted.count !== 1) sent.count = wanted.count;
    if (wanted.cards && readsCards()) sent.cards = wanted.cards;
    const message = { type: "move", move: sent };
    const version = expectedVersion();
    if (version !== undefined) message.version = version;
    return socket.send(message);
  }

  const change = (type) => () => {
    const message = { type };
    const version = expectedVersion();
    if (version !== undefined && ONE_STEP.has(type)) message.version = version;
    return socket.send(message);
  };

  return {
    socket,
    get current() {
      return current;
    },
    get id() {
      return initial.id;
    },
    /** listener(state, before) after every newer state; returns the unbind function. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move,
    undo: change("undo"),
    redo: change("redo"),
    autoFinish: () => socket.send({ type: "autofinish" }),
    pause: () => socket.send({ type: "pause" }),
    resume: () => socket.send({ type: "resume" }),
    abandon: () => api("POST", `/api/games/${initial.id}/abandon`),
    hint: () => api("GET", `/api/games/${initial.id}/hint`),
    winnable: () => api("GET", `/api/games/${initial.id}/winnable?views=1`),
    /** A new game with the same options (the same deal when `sameDeal`). */
    deal: (sameDeal) => {
      const body = { game: current.game, options: current.options };
      if (sameDeal) body.deal = current.deal;
      return api("POST", "/api/games", body);
    },
    get pending() {
      return socket.pending;
    },
    close: () => socket.close(),
  };
}
