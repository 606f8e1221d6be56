/**
 * What the table shows while a move waits for the server: the view with the move's
 * cards already in their new pile.
 *
 * This is not a rule check. It only carries out the player's own gesture on the
 * picture (the top `count` cards of one pile laid on another), so that a dropped card
 * stays where it was put. The server decides; its next state replaces the picture,
 * and a refusal takes it back. Moves that would need a hidden card (a draw from a
 * face-down stock) are not pictured.
 */

/** The view after `move`, or null when the move cannot be pictured. */
export function predict(view, move) {
  const source = view.piles[move.from];
  const target = view.piles[move.to];
  const count = move.count || 1;
  if (!Array.isArray(source) || !Array.isArray(target) || move.from === move.to) return null;
  if (count > source.length) return null;
  const moving = source.slice(source.length - count);
  if (moving.some((card) => card == null)) return null;
  if (move.cards && move.cards.join() !== moving.join()) return null;
  const piles = { ...view.piles, [move.from]: source.slice(0, source.length - count), [move.to]: target.concat(moving) };
  // Moves that touch the changed piles may no longer hold; the rest of the server's
  // list still stands until its next word.
  const touched = (m) => m.from === move.from || m.to === move.from || m.from === move.to || m.to === move.to;
  const moves = (view.moves || []).filter((m) => !touched(m));
  return { ...view, piles, moves };
}

/** The cards a move carries, bottom first, as the view shows them (null if unknown). */
export function cardsOf(view, move) {
  const source = view.piles[move.from];
  const count = move.count || 1;
  if (!Array.isArray(source) || count > source.length) return null;
  const moving = source.slice(source.length - count);
  return moving.every((card) => card != null) ? moving : null;
}
