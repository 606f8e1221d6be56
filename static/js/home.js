/**
 * The home page: one tap plays a game with the options last used, "Continue your game"
 * leads, the daily deal, the full form (options, deal number), the saved games (resume,
 * delete) and the statistics.
 *
 * Options are sent as the engine names them; the server validates them and its
 * error text is shown as is. Titles and option words come from the payload's
 * `describe`. This module knows the API, not the rules.
 */

import { api } from "./net.js";
import { confirmAction, formatScore, formatTime, titleOf, toast } from "./ui.js";

const LAST_OPTIONS = "patience-last-options";

function lastOptions() {
  try {
    return JSON.parse(localStorage.getItem(LAST_OPTIONS) || "{}") || {};
  } catch {
    return {};
  }
}

function rememberOptions(game, options) {
  try {
    localStorage.setItem(LAST_OPTIONS, JSON.stringify({ ...lastOptions(), [game]: options }));
  } catch {
    /* private mode */
  }
}

/** Options in the server's words (`options_text`, from the engine's `describe()`); "" for none. */
function optionWords(item) {
  return (item && item.options_text) || "";
}

const form = document.getElementById("new-game");
const errorBox = document.getElementById("deal-error");

function chosenGame() {
  return form.querySelector('input[name="game"]:checked').value;
}

function showOptionsFor(game) {
  for (const box of form.querySelectorAll(".options")) box.hidden = box.dataset.game !== game;
}

/**
 * The options of the chosen game as its part of the form says: a checkbox is true or
 * false, a chosen radio its value (a whole number when it looks like one, null when
 * empty). The form is the template's; the server checks the options.
 */
function readOptions(game) {
  const box = form.querySelector(`.options[data-game="${CSS.escape(game)}"]`);
  const options = {};
  if (!box) return options;
  for (const input of box.querySelectorAll("input[name]")) {
    if (input.type === "checkbox") options[input.name] = input.checked;
    else if (input.type === "radio" && input.checked) {
      const value = input.value;
      options[input.name] = value === "" ? null : /^\d+$/.test(value) ? Number(value) : value;
    }
  }
  return options;
}

/** Fill the form from a shared link: /?game=klondike&deal=123&options={...}. */
function prefill(params) {
  const game = params.get("game");
  const radio = game && form.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`);
  if (!radio) return;
  radio.checked = true;
  showOptionsFor(game);
  if (params.get("deal")) form.elements.deal.value = params.get("deal");
  let options = {};
  try {
    options = JSON.parse(params.get("options") || "{}");
  } catch {
    options = {};
  }
  const box = form.querySelector(`.options[data-game="${CSS.escape(game)}"]`);
  for (const [name, raw] of Object.entries(options)) {
    const inputs = box.querySelectorAll(`input[name="${CSS.escape(name)}"]`);
    for (const input of inputs) {
      if (input.type === "checkbox") input.checked = !!raw;
      else input.checked = input.value === (raw == null ? "" : String(raw));
    }
  }
}

/** A winnable deal is chosen by the server: no deal number goes with it. */
function showWinnable() {
  const winnable = form.elements.winnable.checked;
  form.elements.deal.disabled = winnable;
  if (winnable) form.elements.deal.value = "";
}

form.addEventListener("change", (event) => {
  if (event.target.name === "game") showOptionsFor(chosenGame());
  if (event.target.name === "winnable") showWinnable();
  errorBox.textContent = "";
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.textContent = "";
  const game = chosenGame();
  const body = { game, options: readOptions(game) };
  const winnable = form.elements.winnable.checked;
  if (winnable) body.winnable = true;
  const dealText = winnable ? "" : form.elements.deal.value.trim().replace(/^#/, "").replace(/[\s,]/g, "");
  if (dealText) {
    if (!/^\d{1,16}$/.test(dealText) || !Number.isSafeInteger(Number(dealText))) {
      errorBox.textContent = `A deal number is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, such as 1234.`;
      form.elements.deal.focus();
      return;
    }
    body.deal = Number(dealText);
  }
  rememberOptions(game, body.options);
  const button = form.querySelector('button[type="submit"]');
  const busy = document.getElementById("deal-busy");
  button.disabled = true;
  busy.hidden = !winnable;
  form.setAttribute("aria-busy", "true");
  try {
    const created = await api("POST", "/api/games", body);
    window.location.assign(created.url);
  } catch (error) {
    errorBox.textContent = error.message;
    button.disabled = false;
    busy.hidden = true;
    form.removeAttribute("aria-busy");
  }
});

function ago(iso) {
  const seconds = (Date.now() - Date.parse(iso)) / 1000;
  if (!Number.isFinite(seconds)) return "";
  if (seconds < 60) return "just now";
  const units = [
    [86400 * 365, "year"],
    [86400 * 30, "month"],
    [86400 * 7, "week"],
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
  ];
  for (const [size, name] of units) {
    if (seconds >= size) {
      const n = Math.floor(seconds / size);
      return `${n} ${name}${n > 1 ? "s" : ""} ago`;
    }
  }
  return "";
}

function element(tag, props = {}, children = []) {
  const el = document.createElement(tag);
  Object.assign(el, props);
  for (const child of children) el.append(child);
  return el;
}

/**
 * Fill a region of the page with `load`, marked aria-busy meanwhile: a screen reader
 * then reads the whole, and the page's layout has settled once no region is busy (what
 * fills in above a button moves it, under a finger about to tap it).
 */
async function filling(id, load) {
  const holder = document.getElementById(id);
  if (holder) holder.setAttribute("aria-busy", "true");
  try {
    await load();
  } finally {
    if (holder) holder.removeAttribute("aria-busy");
  }
}

const STATUS_WORDS = { playing: "In play", won: "Won", lost: "Lost", abandoned: "Stopped" };

async function loadGames() {
  const holder = document.getElementById("saved-games");
  let games;
  try {
    games = (await api("GET", "/api/games")).games || [];
  } catch (error) {
    holder.replaceChildren(element("p", { className: "empty-note", textContent: error.message }));
    return;
  }
  if (!games.length) {
    holder.replaceChildren(
      element("p", { className: "empty-note", textContent: "No games yet. Deal one and it will wait here for you." }),
    );
    return;
  }
  // In-play games first (they are the ones to resume), each group newest first.
  const ordered = [...games.filter((g) => g.status === "playing"), ...games.filter((g) => g.status !== "playing")];
  showContinue(ordered.find((g) => g.status === "playing"));
  const list = element("ul", { className: "games-list" });
  for (const game of ordered.slice(0, 12)) {
    const options = optionWords(game);
    const details = [`Deal #${game.deal}`, `${game.moves_made ?? game.version} moves`, formatTime(game.elapsed || 0)];
    const when = ago(game.updated || game.created);
    if (when) details.push(when);
    const link = element("a", { href: game.url }, [
      element("span", { className: "what" }, [
        element("strong", { textContent: `${titleOf(game)}${options ? ` · ${options}` : ""}` }),
        element("small", { textContent: details.join(" · ") }),
      ]),
      element("span", {
        className: `status-tag ${game.status}`,
        textContent: game.status === "playing" ? "Resume" : STATUS_WORDS[game.status] || game.status,
      }),
    ]);
    const remove = element("button", {
      type: "button",
      className: "btn btn-ghost delete-game",
      textContent: game.status === "playing" ? "Give up" : "Delete",
    });
    remove.setAttribute("aria-label", `${game.status === "playing" ? "Give up" : "Delete"} ${titleOf(game)} deal #${game.deal}`);
    const row = element("li", {}, [link, remove]);
    remove.addEventListener("click", () => removeGame(game, row));
    list.append(row);
  }
  holder.replaceChildren(list);
}

// A deleted game leaves the list at once, but the server is told only after this long,
// so that the toast can offer to undo it.
const UNDO_MS = 5000;
const deletions = new Map(); // game id -> send the deletion now

/**
 * Give up a game in play (it counts as lost), or delete a finished one from the list;
 * both ask first, and a deletion can be undone for a few seconds.
 */
async function removeGame(game, row) {
  const playing = game.status === "playing";
  const sure = await confirmAction(playing ? "Give up this game?" : "Delete this game from your list?", {
    confirm: playing ? "Give up" : "Delete",
    detail: playing
      ? "It counts as lost in your statistics and stays in your list."
      : "It leaves your list; your statistics keep its result.",
  });
  if (!sure) return;
  if (playing) {
    try {
      await api("POST", `/api/games/${game.id}/abandon`);
      toast("Game given up.");
    } catch (error) {
      toast(error.message, "error");
    }
    filling("saved-games", loadGames);
    return;
  }
  row.hidden = true;
  const send = () => {
    deletions.delete(game.id);
    clearTimeout(timer);
    return api("DELETE", `/api/games/${game.id}`).catch((error) => {
      row.hidden = false;
      toast(error.message, "error");
    });
  };
  const timer = setTimeout(send, UNDO_MS);
  deletions.set(game.id, send);
  const note = toast(`Deal #${game.deal} deleted.`);
  const undo = element("button", { type: "button", className: "toast-undo", textContent: "Undo" });
  undo.addEventListener("click", () => {
    clearTimeout(timer);
    deletions.delete(game.id);
    row.hidden = false;
    note.remove();
  });
  note.append(" ", undo);
}

// Leaving the page sends the deletions still waiting for their undo time.
window.addEventListener("pagehide", () => {
  for (const send of deletions.values()) send();
});

/** "Continue your game", at the top, for the newest game in play. */
function showContinue(game) {
  const box = document.getElementById("continue");
  if (!box) return;
  box.hidden = !game;
  if (!game) return;
  const link = box.querySelector("a");
  link.href = game.url;
  const options = optionWords(game);
  box.querySelector(".continue-what").textContent =
    `${titleOf(game)}${options ? ` · ${options}` : ""} · deal #${game.deal} · ${game.moves_made ?? game.version} moves`;
}

// --- one tap: deal a game with the options last used ---------------------------------

async function quickPlay(game, button) {
  const options = lastOptions()[game] || readOptions(game);
  button.disabled = true;
  try {
    const created = await api("POST", "/api/games", { game, options });
    rememberOptions(game, options);
    window.location.assign(created.url);
  } catch (error) {
    toast(error.message, "error");
    button.disabled = false;
  }
}

function paintQuickPlay() {
  const remembered = lastOptions();
  for (const button of document.querySelectorAll("[data-play]")) {
    const game = button.dataset.play;
    const note = button.querySelector("small");
    if (note) note.textContent = remembered[game] ? "Your last options" : "Standard options";
    button.addEventListener("click", () => quickPlay(game, button));
  }
}

// --- the daily deal -----------------------------------------------------------------

async function playDaily(game, button) {
  const options = lastOptions()[game] || readOptions(game);
  button.disabled = true;
  try {
    const query = new URLSearchParams({ game, options: JSON.stringify(options) });
    const daily = await api("GET", `/api/daily?${query}`);
    const created = daily.url
      ? daily
      : await api("POST", "/api/games", { game, options: daily.options || options, deal: daily.deal });
    window.location.assign(created.url);
  } catch (error) {
    toast(error.status === 404 ? "The daily deal is not available on this server yet." : error.message, "error");
    button.disabled = false;
  }
}

async function loadDaily() {
  const box = document.getElementById("daily");
  if (!box) return;
  for (const button of box.querySelectorAll("[data-daily]")) {
    button.addEventListener("click", () => playDaily(button.dataset.daily, button));
  }
  const results = document.getElementById("daily-results");
  try {
    const game = chosenGame();
    const query = new URLSearchParams({ game, options: JSON.stringify(lastOptions()[game] || readOptions(game)) });
    const daily = await api("GET", `/api/daily?${query}`);
    box.querySelector(".daily-date").textContent = daily.date ? `Deal of ${daily.date}` : "";
    const rows = daily.results || [];
    if (!rows.length) {
      const played = daily.played ? ` ${daily.played} played so far.` : "";
      results.replaceChildren(
        element("p", { className: "empty-note", textContent: `Nobody has won this deal yet today.${played}` }),
      );
      return;
    }
    const list = element("ol", { className: "daily-list" });
    for (const row of rows.slice(0, 10)) {
      const who = row.you ? `${row.player} (you)` : row.player;
      list.append(element("li", { textContent: `${who}: ${row.moves} moves, ${formatTime(row.seconds || 0)}` }));
    }
    const best = daily.best ? `Today's best: ${daily.best.moves} moves in ${formatTime(daily.best.seconds || 0)}.` : "";
    results.replaceChildren(...(best ? [element("p", { textContent: best })] : []), list);
  } catch {
    results.replaceChildren();
  }
}

function percent(rate) {
  return rate == null ? "–" : `${Math.round(rate * 100)}%`;
}

function statsRow(name, tally, scoring) {
  const cells = [
    name,
    String(tally.played),
    String(tally.won),
    percent(tally.win_rate),
    `${tally.current_streak} / ${tally.best_streak}`,
    tally.best_time == null ? "–" : formatTime(tally.best_time),
    tally.best_score == null ? "–" : formatScore(tally.best_score, scoring),
  ];
  return element(
    "tr",
    {},
    cells.map((text, i) => element(i ? "td" : "th", { textContent: text, scope: i ? undefined : "row" })),
  );
}

async function loadStats() {
  const holder = document.getElementById("stats");
  let stats;
  try {
    stats = await api("GET", "/api/stats");
  } catch (error) {
    holder.replaceChildren(element("p", { className: "empty-note", textContent: error.message }));
    return;
  }
  if (!stats.overall || !stats.overall.played) {
    holder.replaceChildren(
      element("p", { className: "empty-note", textContent: "Your wins, streaks and best times will show here." }),
    );
    return;
  }
  const overall = stats.overall;
  const tiles = element(
    "dl",
    { className: "stat-tiles" },
    [
      ["Played", String(overall.played)],
      ["Won", String(overall.won)],
      ["Win rate", percent(overall.win_rate)],
      ["Best streak", String(overall.best_streak)],
    ].map(([label, value]) =>
      element("div", {}, [element("dt", { textContent: label }), element("dd", { textContent: value })]),
    ),
  );
  const head = element("thead", {}, [
    element(
      "tr",
      {},
      ["Game", "Played", "Won", "Win %", "Streak now / best", "Best time", "Best score"].map((text) =>
        element("th", { textContent: text, scope: "col" }),
      ),
    ),
  ]);
  const body = element("tbody");
  for (const variant of stats.variants || []) {
    const options = optionWords(variant);
    const name = `${titleOf(variant)}${options ? ` · ${options}` : ""}`;
    body.append(statsRow(name, variant, variant.options && variant.options.scoring));
  }
  const table = element("table", { className: "stats-table" }, [
    element("caption", { className: "visually-hidden", textContent: "Statistics by game and options" }),
    head,
    body,
  ]);
  holder.replaceChildren(tiles, element("div", { className: "table-scroll" }, [table]));
}

prefill(new URLSearchParams(location.search));
showOptionsFor(chosenGame());
showWinnable();
paintQuickPlay();
filling("saved-games", loadGames);
filling("stats", loadStats);
filling("daily-results", loadDaily);
