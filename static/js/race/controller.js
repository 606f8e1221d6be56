/**
 * The race page's controller: the race's socket, the race as the server last sent it,
 * and the changes this seat sends (moves, ready, resign, offer to stop, join, rematch).
 * Views subscribe; none of them talks to the socket.
 *
 *   const race = createRaceController(initial, page, {onState, onMessage, onStatus, onGone, onMoved});
 *
 * A move carries the cards it moves (once the server reads them), so a move made on a
 * table that changed under it is refused as stale rather than moving another card. It
 * carries no version: the opponent's moves change the race's version all the time.
 */

import { api, GameSocket } from "../net.js";

export function createRaceController(initial, page, handlers = {}) {
  let race = initial;
  let socket = null;
  const listeners = new Set();

  function open() {
    const query = page.token ? `?token=${encodeURIComponent(page.token)}` : "";
    socket = new GameSocket(`/ws/races/${race.id}/${query}`, {
      onState(message) {
        const before = race;
        race = message;
        for (const listener of listeners) listener(race, before);
      },
      onStatus: (status, pending) => handlers.onStatus && handlers.onStatus(status, pending),
      onGone: () => handlers.onGone && handlers.onGone(),
      onMoved: (text) => handlers.onMoved && handlers.onMoved(text),
      onMessage: (message) => handlers.onMessage && handlers.onMessage(message),
      onProblem: (text, code) => handlers.onProblem && handlers.onProblem(text, code),
    });
    socket.version = race.version;
  }

  const readsCards = () => !!race.describe;

  return {
    open,
    get socket() {
      return socket;
    },
    get current() {
      return race;
    },
    /** Change the race held here without a socket message (a join, a finished message). */
    replace(next) {
      const before = race;
      race = next;
      for (const listener of listeners) listener(race, before);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move(wanted) {
      const sent = { from: wanted.from, to: wanted.to };
      if (wanted.count && wanted.count !== 1) sent.count = wanted.count;
      if (wanted.cards && readsCards()) sent.cards = wanted.cards;
      return socket.send({ type: "move", move: sent });
    },
    send: (type) => socket.send({ type }),
    async join(body) {
      const joined = await api("POST", `/api/races/${race.id}/join`, body);
      // This browser now holds seat 2: the race's own address is its page from now on.
      history.replaceState(null, "", joined.url);
      page.mode = "play";
      page.token = null;
      socket.close();
      this.replace(joined);
      open();
      return joined;
    },
    rematch: () => api("POST", `/api/races/${race.id}/rematch`),
  };
}
