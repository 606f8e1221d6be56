/**
 * The race page (/races/<id>/, and the invite and watch links): wires the race's
 * controller (race/controller.js) to its views: the table, the players and status
 * (race/panels.js), the result (race/result.js), the connection notice and settings.
 *
 * The page arrives with the race as the server lets this visitor see it and draws it
 * at once; the socket then brings every change, the countdown, the opponent's presence
 * and the end. It never decides whether a move is legal.
 */

import { connectionNotice } from "../connection.js";
import { onSettingsChange, openSettings, SPEEDS } from "../settings.js";
import { play as playSound } from "../sound.js";
import { setSpeed } from "../table/anim.js";
import { createTable } from "../table/table.js";
import { confirmAction, shareLink, toast } from "../ui.js";
import { refusalSentence } from "../words.js";
import { createRaceController } from "./controller.js";
import {
  createBanner,
  createCountdown,
  paintControls,
  paintOffer,
  paintPlayers,
  paintSummary,
  paintWaiting,
  statusWords,
} from "./panels.js";
import { paintRematch, showResult } from "./result.js";
import { nameOf, player, seated, topSeat } from "./who.js";

const $ = (id) => document.getElementById(id);
// A phone held upright shows the opponent as a compact strip and a line of figures.
const PHONE = "(max-width: 700px) and (orientation: portrait), (max-height: 500px)";

function start() {
  const initial = JSON.parse($("initial-race").textContent);
  const page = JSON.parse($("race-page").textContent);
  let resultShownFor = null;
  let expanded = false;

  const el = {
    root: $("race"),
    me: $("player-me"),
    them: $("player-them"),
    status: $("race-status"),
    offerEnd: $("offer-end"),
    resign: $("resign"),
    copyWatch: $("copy-watch"),
    banner: $("race-banner"),
    agree: $("agree-end"),
    waiting: $("waiting"),
    ready: $("ready"),
    join: $("join"),
    joinError: $("join-error"),
    invite: document.querySelector("#waiting .invite"),
    inviteLink: $("invite-link"),
    countdown: $("countdown"),
    connection: $("connection"),
    dialog: $("result"),
    rematch: $("rematch"),
    summary: $("opponent-summary"),
    keysDialog: $("keys"),
  };
  const banner = createBanner(el);
  const showConnection = connectionNotice(el.connection, { offlineWords: "the race goes on without you meanwhile." });

  const race = createRaceController(initial, page, {
    onStatus: showConnection,
    onGone: () => {
      banner.show("This race is not available to you.");
      el.connection.hidden = true;
    },
    onMoved: () => {
      banner.show("This race moved to your account in another tab. Reload to carry on.");
      el.connection.hidden = true;
    },
    onMessage,
    onProblem: (text) => toast(text, "error"),
  });
  const current = () => race.current;

  const table = createTable($("table"), {
    onMove: (move) =>
      race.move(move).then((answer) => {
        playSound("place");
        return answer;
      }),
    onRefused: (error, move, context) => {
      playSound("refuse");
      toast(refusalSentence(error, { ...context, ownerName: (seat) => (seat === current().seat ? "you" : nameOf(current(), seat)) }), "error");
    },
    onNotice: (text) => toast(text),
    onHelp: () => el.keysDialog.showModal(),
    description: initial.describe,
    fill: true,
  });
  const countdown = createCountdown(el, {
    onGo: () => {
      if (seated(current())) table.controller.setFocus(`p${current().seat}.stock`);
    },
  });

  onSettingsChange((settings) => {
    table.configure({ leftHanded: settings.leftHanded, cardSize: settings.cardSize });
    setSpeed(SPEEDS[settings.speed] ?? 1);
  });
  const phone = matchMedia(PHONE);
  const coarse = matchMedia("(pointer: coarse)");
  function fitToScreen() {
    const compact = phone.matches && !expanded;
    table.configure({ touch: coarse.matches, compactOpponent: compact });
    el.root.classList.toggle("phone", phone.matches);
    el.summary.hidden = !phone.matches;
    el.summary.querySelector("button").textContent = expanded ? "Smaller" : "Show their cards";
    el.summary.querySelector("button").setAttribute("aria-expanded", String(expanded));
  }
  phone.addEventListener("change", fitToScreen);
  coarse.addEventListener("change", fitToScreen);
  el.summary.querySelector("button").addEventListener("click", () => {
    expanded = !expanded;
    fitToScreen();
  });

  race.subscribe((next, before) => {
    if (next.describe && next.describe !== before.describe) table.describe(next.describe);
    if (next.state !== before.state) table.set(next.state, next.version);
    paint(before);
  });

  function onMessage(message) {
    if (message.type === "countdown") countdown.show(String(message.seconds));
    else if (message.type === "start") countdown.show("Go!", true);
    else if (message.type === "presence") onPresence(message);
    else if (message.type === "finished") {
      race.replace({ ...current(), status: "finished", result: message.result, seed: message.seed });
    }
  }

  function onPresence({ seat, connected }) {
    const r = current();
    const p = player(r, seat);
    if (p) p.connected = connected;
    paint();
    if (seat === r.seat || r.status === "finished") return;
    if (!connected) {
      banner.show(`${nameOf(r, seat)} has lost the connection. The race goes on; they can come back.`, "away");
    } else {
      if (banner.kind === "away") banner.hide();
      if (r.status !== "waiting") toast(`${nameOf(r, seat)} is back.`);
    }
  }

  function paint(before = null) {
    const r = current();
    el.root.dataset.status = r.status;
    el.root.dataset.seat = r.seat ? String(r.seat) : "spectator";
    document.body.classList.toggle("racing", r.status === "playing" || r.status === "countdown");
    paintPlayers(el, r);
    el.status.textContent = statusWords(r);
    paintControls(el, r);
    paintOffer(el, banner, r);
    paintWaiting(el, r, page);
    paintSummary(el, r);
    if (r.status === "finished") {
      countdown.hide();
      if (resultShownFor !== r.version) {
        resultShownFor = r.version;
        el.resign.hidden = true;
        el.offerEnd.hidden = true;
        if (banner.kind !== "info") banner.hide();
        showResult(el.dialog, r, page);
      }
    } else if (el.dialog.open) {
      el.dialog.close();
    }
    if (before && before.status === "waiting" && r.status === "countdown") {
      toast("Both players are ready. The race starts on the signal!");
    }
    if (before && !before.rematch && r.rematch && resultShownFor !== null) {
      paintRematch(el.dialog, r);
      toast(`A rematch is ready: ${r.players.map((p) => p.name).join(" vs ")}.`);
    }
  }

  // --- actions -----------------------------------------------------------------------

  async function join(event) {
    event.preventDefault();
    el.joinError.textContent = "";
    const input = $("join-name");
    const body = { token: page.token };
    if (input) {
      body.name = input.value.trim();
      if (!body.name) {
        el.joinError.textContent = "Choose a name for your friend to see.";
        input.focus();
        return;
      }
    }
    const button = el.join.querySelector("button");
    button.disabled = true;
    try {
      await race.join(body);
      if (input) localStorage.setItem("race-name", body.name);
      el.ready.focus();
    } catch (error) {
      el.joinError.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  }

  function send(type, done) {
    return race
      .send(type)
      .then(done)
      .catch((error) => toast(refusalSentence(error), "error"));
  }

  async function resign() {
    const sure = await confirmAction("Resign this race?", {
      confirm: "Resign",
      detail: `${nameOf(current(), topSeat(current()))} wins at once.`,
    });
    if (sure) send("resign");
  }

  async function rematch() {
    const r = current();
    if (r.rematch) {
      window.location.assign(`/races/${r.rematch}/`);
      return;
    }
    el.rematch.disabled = true;
    try {
      const next = await race.rematch();
      window.location.assign(next.url);
    } catch (error) {
      toast(error.message, "error");
      el.rematch.disabled = false;
    }
  }

  el.ready.addEventListener("click", () => {
    el.ready.disabled = true;
    send("ready").finally(() => {
      el.ready.disabled = false;
    });
  });
  el.join.addEventListener("submit", join);
  el.resign.addEventListener("click", resign);
  el.offerEnd.addEventListener("click", () =>
    send("offer_end", () =>
      toast(`You offered to stop and be scored. If ${nameOf(current(), topSeat(current()))} agrees, the race ends.`),
    ),
  );
  el.agree.addEventListener("click", () => send("offer_end"));
  $("copy-invite").addEventListener("click", () =>
    shareLink(el.inviteLink.value, { title: "Race me at Double Solitaire", what: "Invite link" }),
  );
  el.copyWatch.addEventListener("click", () =>
    shareLink(`${location.origin}${current().watch_url}`, { title: "Watch this race", what: "Watch link" }),
  );
  el.rematch.addEventListener("click", rematch);
  $("look").addEventListener("click", () => el.dialog.close());
  $("open-settings").addEventListener("click", openSettings);
  $("open-keys").addEventListener("click", () => el.keysDialog.showModal());
  el.keysDialog.querySelector(".k-close").addEventListener("click", () => el.keysDialog.close());

  const joinName = $("join-name");
  if (joinName && !joinName.value) joinName.value = localStorage.getItem("race-name") || "";

  fitToScreen();
  table.set(initial.state, initial.version);
  paint();
  for (const p of initial.players) {
    if (p.seat !== initial.seat && !p.connected && initial.status === "playing") onPresence({ seat: p.seat, connected: false });
  }
  race.open();
  // For tests and the curious: read-only in spirit.
  window.patience = {
    table,
    get socket() {
      return race.socket;
    },
    get race() {
      return current();
    },
  };
}

start();
