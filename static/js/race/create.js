/**
 * "Race a friend": the form that creates a race (on the home page and the race lobby)
 * and the list of the player's recent races under it.
 *
 * The server checks the name and options and its words are shown as they are. On
 * success the player goes to the new race's page, where the invite link waits.
 * This module knows the races API, nothing of cards.
 */

import { api, cookie } from "../net.js";

const STATUS_WORDS = {
  waiting: "waiting",
  countdown: "starting",
  playing: "in play",
  finished: "over",
};

function resultWords(race, mySeats) {
  const result = race.result;
  if (!result) return STATUS_WORDS[race.status] || race.status;
  if (result.winner == null) return "draw";
  return mySeats.has(result.winner) ? "won" : "lost";
}

async function listRaces(holder) {
  let listed;
  try {
    listed = (await api("GET", "/api/races")).races;
  } catch {
    return;
  }
  if (!listed.length) return;
  const title = document.createElement("h3");
  title.textContent = "Your races";
  const list = document.createElement("ul");
  list.className = "games-list race-list";
  for (const race of listed.slice(0, 6)) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = race.url;
    const names = race.players.map((p) => p.name).join(" vs ");
    const what = document.createElement("span");
    what.className = "what";
    what.innerHTML = "<strong></strong><small></small>";
    what.querySelector("strong").textContent = race.players.length > 1 ? names : `${names}, waiting for a friend`;
    what.querySelector("small").textContent = new Date(race.created).toLocaleString();
    const tag = document.createElement("span");
    const words = resultWords(race, new Set(race.my_seats || []));
    tag.className = `status-tag ${words === "won" ? "won" : words === "lost" ? "lost" : ""}`;
    tag.textContent = words;
    link.append(what, tag);
    item.append(link);
    list.append(item);
  }
  holder.replaceChildren(title, list);
}

/** Races under way that their creators listed for anyone to watch (never invites). */
async function listLive(holder) {
  let listed;
  try {
    listed = (await api("GET", "/api/races/live")).races;
  } catch {
    return;
  }
  if (!listed.length) return;
  const title = document.createElement("h3");
  title.textContent = "Live races";
  const list = document.createElement("ul");
  list.className = "games-list race-list";
  for (const race of listed) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = race.watch_url;
    const what = document.createElement("span");
    what.className = "what";
    what.innerHTML = "<strong></strong><small></small>";
    what.querySelector("strong").textContent = race.players.join(" vs ");
    what.querySelector("small").textContent = `${race.moves_made} moves`;
    const tag = document.createElement("span");
    tag.className = "status-tag";
    tag.textContent = "watch";
    link.append(what, tag);
    item.append(link);
    list.append(item);
  }
  holder.replaceChildren(title, list);
}

/**
 * "Find an opponent": a seek in the server's pool, polled until a stranger is paired
 * (then the race page opens, where both press Ready). After 20 s the server offers the
 * computer; leaving the page, or "Stop looking", cancels the seek.
 */
function seekPanel(form, errorBox) {
  const panel = document.getElementById("seek-status");
  const words = document.getElementById("seek-words");
  const instead = document.getElementById("seek-computer");
  const cancel = document.getElementById("seek-cancel");
  let seek = null;
  let timer = null;

  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    panel.hidden = true;
    instead.hidden = true;
  }

  async function leave() {
    const mine = seek;
    seek = null;
    stop();
    if (mine) await api("DELETE", `/api/seeks/${mine.id}`).catch(() => {});
  }

  async function poll() {
    if (!seek) return;
    try {
      const now = await api("GET", `/api/seeks/${seek.id}`);
      if (now.status === "matched" && now.race) {
        seek = null;
        window.location.assign(now.race.url);
        return;
      }
      if (now.status !== "waiting") {
        stop();
        return;
      }
      instead.hidden = !now.offer_computer;
      if (now.offer_computer) words.textContent = "Nobody yet. Race the computer, or keep waiting.";
    } catch (error) {
      errorBox.textContent = error.message;
    }
    timer = setTimeout(poll, 1500);
  }

  cancel.addEventListener("click", leave);
  instead.addEventListener("click", async () => {
    const body = { ...seek.body, opponent: "computer", level: form.querySelector('select[name="level"]').value };
    await leave();
    try {
      const race = await api("POST", "/api/races", body);
      window.location.assign(race.url);
    } catch (error) {
      errorBox.textContent = error.message;
    }
  });
  window.addEventListener("pagehide", () => {
    if (!seek) return;
    // The page is going: take the seek out of the pool on the way.
    fetch(`/api/seeks/${seek.id}`, {
      method: "DELETE",
      keepalive: true,
      credentials: "same-origin",
      headers: { "X-CSRFToken": cookie("csrftoken") || "" },
    });
  });

  return {
    async start(body) {
      await leave();
      try {
        const made = await api("POST", "/api/seeks", body);
        if (made.status === "matched" && made.race) {
          window.location.assign(made.race.url);
          return;
        }
        seek = { id: made.id, body };
        words.textContent = "Looking for an opponent with these options…";
        panel.hidden = false;
        timer = setTimeout(poll, 1500);
      } catch (error) {
        errorBox.textContent = error.message;
      }
    },
  };
}

function start() {
  const form = document.getElementById("race-create");
  if (!form) return;
  const errorBox = document.getElementById("race-error");
  const nameInput = form.querySelector('input[name="name"]');
  const saved = localStorage.getItem("race-name");
  if (nameInput && saved && !nameInput.value) nameInput.value = saved;

  const seeking = seekPanel(form, errorBox);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    const opponent = event.submitter ? event.submitter.value : "";
    const body = {
      options: { same_deal: form.querySelector('input[name="same_deal"]:checked').value === "1" },
    };
    const listed = form.querySelector('input[name="public"]');
    if (listed && listed.checked && opponent !== "seek") body.public = true;
    if (nameInput) {
      body.name = nameInput.value.trim();
      if (!body.name) {
        errorBox.textContent = "Choose a name for your friend to see.";
        nameInput.focus();
        return;
      }
    }
    const button = event.submitter || form.querySelector('button[type="submit"]');
    if (opponent === "seek") {
      if (nameInput) localStorage.setItem("race-name", body.name);
      seeking.start(body);
      return;
    }
    if (opponent === "computer") {
      body.opponent = "computer";
      body.level = form.querySelector('select[name="level"]').value;
    }
    button.disabled = true;
    try {
      const race = await api("POST", "/api/races", body);
      if (nameInput) localStorage.setItem("race-name", body.name);
      window.location.assign(race.url);
    } catch (error) {
      errorBox.textContent = error.message;
      button.disabled = false;
    }
  });

  const holder = document.getElementById("my-races");
  if (holder) listRaces(holder);
  const live = document.getElementById("live-races");
  if (live) listLive(live);
}

start();
