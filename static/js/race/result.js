/**
 * The race's result dialog: who won and why, both counts, the deal seed, replay and
 * rematch.
 */

import { nameOf, resultHeadline, seated } from "./who.js";

function resultReason(race) {
  const result = race.result || {};
  switch (result.reason) {
    case "finished":
      return `${result.winner === race.seat ? "You" : nameOf(race, result.winner)} played every card to the foundations.`;
    case "blocked":
      return "Neither player could make any more progress, so the race was scored by cards on the foundations.";
    case "resigned":
      return `${result.resigned === race.seat ? "You" : nameOf(race, result.resigned)} resigned.`;
    case "agreed":
      return "Both players agreed to stop, so the race was scored by cards on the foundations.";
    default:
      return "";
  }
}

export function showResult(dialog, race, page) {
  const result = race.result || {};
  const contributions = result.contributions || race.state.contributions || {};
  dialog.classList.toggle("won", result.winner != null && result.winner === race.seat);
  dialog.querySelector("h2").textContent = resultHeadline(race);
  dialog.querySelector(".result-text").textContent = resultReason(race);
  for (const seat of [1, 2]) {
    const row = dialog.querySelector(`.score-${seat}`);
    row.className = `score-${seat} seat-${seat}${result.winner === seat ? " winner" : ""}`;
    row.querySelector("dt").textContent = seat === race.seat ? `${nameOf(race, seat)} (you)` : nameOf(race, seat);
    row.querySelector("dd").textContent = String(contributions[String(seat)] ?? 0);
  }
  const seedLine = dialog.querySelector(".seed-line");
  seedLine.replaceChildren();
  if (race.seed != null) {
    const seed = document.createElement("code");
    seed.textContent = String(race.seed);
    seedLine.append("Deal seed ", seed, ", now that the race is over: each player's shuffle came from it.");
  }
  paintRating(dialog.querySelector("#rating-line"), race);
  const replay = dialog.querySelector("#replay-link");
  replay.href = `/races/${race.id}/replay/${page.token ? `?token=${encodeURIComponent(page.token)}` : ""}`;
  paintRematch(dialog, race);
  if (!dialog.open) dialog.showModal();
}

/** "Your rating: 1500 → 1532 (+32)", from the finished race's ``ratings`` (each seat's
 * before and after, games/races/ratings.py); hidden for spectators and unrated races. */
function paintRating(line, race) {
  if (!line) return;
  const mine = race.seat != null && race.ratings ? race.ratings[String(race.seat)] : null;
  line.hidden = !mine;
  if (!mine) {
    line.textContent = "";
    return;
  }
  const sign = mine.change > 0 ? "+" : mine.change < 0 ? "−" : "±";
  const change = document.createElement("strong");
  change.className = mine.change > 0 ? "rating-up" : mine.change < 0 ? "rating-down" : "rating-same";
  change.textContent = `${sign}${Math.abs(mine.change)}`;
  line.replaceChildren(
    `Your rating: ${mine.before} → ${mine.after} (`,
    change,
    `)${mine.provisional ? ", provisional" : ""}.`,
  );
}

export function paintRematch(dialog, race) {
  const button = dialog.querySelector("#rematch");
  button.hidden = !seated(race);
  button.textContent = race.rematch ? "Join the rematch" : "Rematch";
}
