/**
 * The connection notice shared by the play and race pages: quiet while all is well,
 * "Reconnecting…" when the socket is down for a moment or a change waits too long.
 *
 *   const show = connectionNotice(element, {waitingWords});
 *   socket handlers: onStatus: show
 */

const QUIET_MS = 1200;

export function connectionNotice(element, { waitingWords = "", offlineWords = "" } = {}) {
  let timer = 0;
  return function show(status, pending = 0) {
    clearTimeout(timer);
    if (status === "open") {
      element.hidden = true;
      return;
    }
    const words = () =>
      `Reconnecting…${pending && waitingWords ? ` ${waitingWords}` : offlineWords ? ` ${offlineWords}` : ""}`;
    if (status === "slow") {
      // Open, but a change has waited long for its answer: say so at once.
      element.textContent = words();
      element.hidden = false;
      return;
    }
    // Only worry the player when a connection that worked is gone for a moment.
    timer = setTimeout(() => {
      element.textContent = words();
      element.hidden = false;
    }, QUIET_MS);
  };
}
