/**
 * "Race a friend": the form that creates a race (on the home page and the race lobby)
 * and the list of the player's recent races under it.
 *
 * The server checks the name and options and its words are shown as they are. On
 * success the player goes to the new race's page, where the invite link waits.
 * This module knows the races API, nothing of cards.
 */

import { api } from "../net.js";

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

function start() {
  const form = document.getElementById("race-create");
  if (!form) return;
  const errorBox = document.getElementById("race-error");
  const nameInput = form.querySelector('input[name="name"]');
  const saved = localStorage.getItem("race-name");
  if (nameInput && saved && !nameInput.value) nameInput.value = saved;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.textContent = "";
    const body = {
      options: { same_deal: form.querySelector('input[name="same_deal"]:checked').value === "1" },
    };
    if (nameInput) {
      body.name = nameInput.value.trim();
      if (!body.name) {
        errorBox.textContent = "Choose a name for your friend to see.";
        nameInput.focus();
        return;
      }
    }
    const button = form.querySelector('button[type="submit"]');
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
}

start();
