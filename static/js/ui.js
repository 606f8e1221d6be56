/**
 * Small page helpers shared by the pages: toasts and time/score formatting.
 * Nothing here knows about games or the server.
 */

const TOAST_MS = 4200;

/** Show a short message at the bottom of the screen; kind "error" is styled as such. */
export function toast(text, kind = "info") {
  let holder = document.querySelector(".toasts");
  if (!holder) {
    holder = document.createElement("div");
    holder.className = "toasts";
    holder.setAttribute("role", "status");
    holder.setAttribute("aria-live", "polite");
    document.body.appendChild(holder);
  }
  // The same words twice in a row refresh the one toast rather than stacking.
  for (const old of holder.children) {
    if (old.textContent === text) old.remove();
  }
  const item = document.createElement("div");
  item.className = `toast ${kind}`;
  item.textContent = text;
  holder.appendChild(item);
  while (holder.children.length > 3) holder.firstElementChild.remove();
  setTimeout(() => {
    item.classList.add("leaving");
    setTimeout(() => item.remove(), 320);
  }, TOAST_MS);
  return item;
}

/** 75 -> "1:15", 3725 -> "1:02:05". */
export function formatTime(seconds) {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** A score as players expect it: Vegas in dollars, others as points. */
export function formatScore(score, scoring) {
  if (score == null) return "–";
  if (scoring === "vegas") return `${score < 0 ? "−" : ""}$${Math.abs(score)}`;
  return String(score);
}

export const GAME_TITLES = {
  klondike: "Klondike",
  josephine: "Josephine",
  casket: "Casket",
  double: "Double Solitaire",
};

/** "Draw 3 · 3 passes · Vegas" and the like, for lists and headings. */
export function describeOptions(game, options = {}) {
  const parts = [];
  if (game === "klondike") {
    parts.push(`Draw ${options.draw ?? 3}`);
    if (options.passes != null) parts.push(options.passes === 1 ? "1 pass" : `${options.passes} passes`);
    if (options.scoring === "vegas") parts.push("Vegas");
    else if (options.scoring == null && "scoring" in options) parts.push("no score");
    if (options.whole_sequences) parts.push("whole sequences");
    if (options.any_card_in_space) parts.push("any card in a space");
    if (options.foundation_to_tableau === false) parts.push("no moving back");
    if (options.face_up) parts.push("all face up");
  } else if (game === "casket" && options.hard) {
    parts.push("hard");
  } else if (game === "double" && options.same_deal) {
    parts.push("same deal");
  }
  return parts.join(" · ");
}
