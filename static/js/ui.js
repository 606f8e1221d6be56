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

/**
 * A game's title and options in words, from the payload's `describe` (the server's
 * words); without one, the game's id is shown as it is.
 */
export function titleOf(game) {
  const described = game && game.describe;
  if (described && described.title) return described.title;
  const name = (game && game.game) || "";
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function optionsTextOf(game) {
  const described = game && game.describe;
  return (described && described.options_text) || "";
}

/** Ask before something that cannot be taken back; resolves true when confirmed. */
export function confirmAction(question, { confirm = "Yes", cancel = "Cancel", detail = "" } = {}) {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "confirm-dialog";
    dialog.setAttribute("aria-labelledby", "confirm-title");
    const title = document.createElement("h2");
    title.id = "confirm-title";
    title.textContent = question;
    const text = document.createElement("p");
    text.textContent = detail;
    text.hidden = !detail;
    const actions = document.createElement("div");
    actions.className = "actions";
    const no = document.createElement("button");
    no.type = "button";
    no.className = "btn";
    no.textContent = cancel;
    const yes = document.createElement("button");
    yes.type = "button";
    yes.className = "btn btn-primary";
    yes.textContent = confirm;
    actions.append(no, yes);
    dialog.append(title, text, actions);
    document.body.append(dialog);
    let answer = false;
    yes.addEventListener("click", () => {
      answer = true;
      dialog.close();
    });
    no.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(answer);
    });
    dialog.showModal();
    no.focus();
  });
}

/** Share a link with the system's share sheet, or copy it when there is none. */
export async function shareLink(url, { title = "", text = "", what = "Link" } = {}) {
  if (navigator.share) {
    try {
      await navigator.share({ url, title, text });
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") return "cancelled";
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    toast(`${what} copied.`);
    return "copied";
  } catch {
    toast(`${what}: ${url}`);
    return "shown";
  }
}
