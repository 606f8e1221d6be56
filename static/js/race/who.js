/**
 * Who is who in a race, from the viewer's side: seats, names, "you".
 * Pure functions of the race object; shared by the race page's views.
 */

export function seated(race) {
  return race.seat === 1 || race.seat === 2;
}

/** The seat drawn at the bottom: one's own, or seat 1 for a spectator. */
export function bottomSeat(race) {
  return seated(race) ? race.seat : 1;
}

export function topSeat(race) {
  return 3 - bottomSeat(race);
}

export function player(race, seat) {
  return race.players.find((p) => p.seat === seat) || null;
}

export function nameOf(race, seat) {
  const p = player(race, seat);
  if (p) return p.name;
  return seat === 2 ? "Your friend" : "Player 1";
}

export function resultHeadline(race) {
  const result = race.result;
  if (!result) return "Race over";
  if (result.winner == null) return "A draw!";
  if (result.winner === race.seat) return "You won!";
  return `${nameOf(race, result.winner)} won`;
}
