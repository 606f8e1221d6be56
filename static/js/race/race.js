/**
 * The race page (/races/<id>/, and the invite and watch links): the waiting room, the
 * 3-2-1, the race itself and its result, all driven by the race's socket.
 *
 * The page arrives with the race as the server lets this visitor see it (their own
 * seat's view, or a spectator's) and draws it at once; the socket then brings every
 * change, the countdown, the opponent's presence and the end. Moves go out over the
 * socket and the server settles them: a card refused (say, its foundation spot was
 * just taken) slides back and the server's words are shown.
 *
 * This module knows the page's controls and the races API; drawing and moving cards
 * is table/'s job, and it never decides whether a move is legal.
 */

import { api, GameSocket } from "../net.js";
import { createTable } from "../table/table.js";
import { toast } from "../ui.js";

const $ = (id) => document.getElementById(id);
const RESIGN_CONFIRM_MS = 4000;

function start() {
  let race = JSON.parse($("initial-race").textContent);
  const page = JSON.parse($("race-page").textContent);
  const raceId = race.id;
  let socket = null;
  let resultShownFor = null;
  let resignArmed = 0;
  let countdownTimer = 0;

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
  };

  const table = createTable($("table"), {
    onMove: (move) => socket.send({ type: "move", move }),
    onRefused: (reason) => toast(reason, "error"),
    onNotice: (text) => toast(text),
    onHelp: () => {
      const help = document.querySelector(".keys-help");
      help.open = true;
      help.querySelector("summary").focus();
    },
  });

  // --- who is who --------------------------------------------------------------------

  const seated = () => race.seat === 1 || race.seat === 2;
  const bottomSeat = () => (seated() ? race.seat : 1);
  const topSeat = () => 3 - bottomSeat();
  const player = (seat) => race.players.find((p) => p.seat === seat) || null;
  const nameOf = (seat) => {
    const p = player(seat);
    if (p) return p.name;
    return seat === 2 ? "Your friend" : "Player 1";
  };
  /** "you" for the viewer's own seat, the player's name otherwise. */
  const called = (seat) => (seat === race.seat ? "you" : nameOf(seat));

  // --- the socket --------------------------------------------------------------------

  function openSocket() {
    const query = page.token ? `?token=${encodeURIComponent(page.token)}` : "";
    socket = new GameSocket(`/ws/races/${raceId}/${query}`, {
      onState: applyState,
      onStatus: showConnection,
      onGone: () => {
        showBanner("This race is not available to you.");
        el.connection.hidden = true;
      },
      onMessage,
      onProblem: (text) => toast(text, "error"),
    });
    socket.version = race.version;
  }

  function applyState(message) {
    const before = race;
    race = message;
    table.set(message.state);
    paint(before);
  }

  function onMessage(message) {
    if (message.type === "countdown") showCountdown(String(message.seconds));
    else if (message.type === "start") showCountdown("Go!", true);
    else if (message.type === "presence") onPresence(message);
    else if (message.type === "finished") {
      race = { ...race, status: "finished", result: message.result, seed: message.seed };
      showResult();
    }
  }

  function onPresence({ seat, connected }) {
    const p = player(seat);
    if (p) p.connected = connected;
    paint();
    if (seat === race.seat) return;
    if (race.status === "finished") return;
    if (!connected) {
      showBanner(`${nameOf(seat)} has lost the connection. The race goes on; they can come back.`, "away");
    } else {
      if (el.banner.dataset.kind === "away") hideBanner();
      if (race.status !== "waiting") toast(`${nameOf(seat)} is back.`);
    }
  }

  // --- painting ----------------------------------------------------------------------

  function paintPlayer(box, seat) {
    const p = player(seat);
    box.className = `race-player seat-${seat}`;
    box.classList.toggle("away", !!p && !p.connected && seat !== race.seat && race.status !== "finished");
    box.classList.toggle("missing", !p);
    box.querySelector(".name").textContent = p ? p.name : "waiting…";
    let tag = "";
    if (seat === race.seat) tag = "(you)";
    else if (p && !p.connected && race.status !== "finished") tag = "(away)";
    box.querySelector(".tag").textContent = tag;
    const count = p ? p.contribution : 0;
    const counter = box.querySelector(".count");
    if (counter.textContent !== String(count)) {
      counter.textContent = String(count);
      counter.classList.remove("bump");
      void counter.offsetWidth; // restart the little bump animation
      counter.classList.add("bump");
    }
    box.setAttribute("aria-label", `${p ? p.name : "Empty seat"}${seat === race.seat ? " (you)" : ""}: ${count} cards on the foundations`);
  }

  function paintPlayers() {
    paintPlayer(el.me, bottomSeat());
    paintPlayer(el.them, topSeat());
  }

  function statusWords() {
    const both = race.players.length === 2;
    switch (race.status) {
      case "waiting":
        if (!both) return seated() ? "Waiting for your friend to join" : "Waiting for a second player";
        return "Waiting for both players to be ready";
      case "countdown":
        return "Get ready…";
      case "playing":
        return seated() ? "Race on! No undo." : "Watching the race live";
      default:
        return resultHeadline();
    }
  }

  function paint(before = null) {
    const status = race.status;
    el.root.dataset.status = status;
    el.root.dataset.seat = race.seat ? String(race.seat) : "spectator";
    paintPlayers();
    el.status.textContent = statusWords();
    const playing = status === "playing";
    const me = player(race.seat);
    el.resign.hidden = !seated() || !(playing || status === "countdown");
    el.offerEnd.hidden = !seated() || !playing;
    el.offerEnd.disabled = !!(me && me.offered_end);
    el.offerEnd.textContent = me && me.offered_end ? "Offered to stop" : "Offer to stop";
    paintOffer();
    paintWaiting();
    if (status === "finished") {
      hideCountdown();
      if (resultShownFor !== race.version) showResult();
    } else if (el.dialog.open) {
      el.dialog.close();
    }
    if (before && before.status === "waiting" && status === "countdown") {
      toast("Both players are ready. The race starts on the signal!");
    }
    if (before && !before.rematch && race.rematch && resultShownFor !== null) {
      paintRematch();
      toast(`A rematch is ready: ${race.players.map((p) => p.name).join(" vs ")}.`);
    }
  }

  function paintOffer() {
    if (race.status !== "playing") {
      if (el.banner.dataset.kind === "offer") hideBanner();
      return;
    }
    const other = player(topSeat());
    const me = player(race.seat);
    if (seated() && other && other.offered_end && me && !me.offered_end) {
      showBanner(
        `${other.name} offers to stop now and be scored: you ${me.contribution}, ${other.name} ${other.contribution}.`,
        "offer",
      );
      el.agree.hidden = false;
    } else if (el.banner.dataset.kind === "offer") {
      hideBanner();
    }
  }

  function paintWaiting() {
    const waiting = race.status === "waiting";
    el.waiting.hidden = !waiting;
    if (!waiting) return;
    const sameDeal = race.options && race.options.same_deal;
    el.waiting.querySelector(".waiting-deal").textContent = sameDeal
      ? "Same deal for both: you race on identical layouts."
      : "Each player has their own shuffle, as in the rule book.";
    for (const item of el.waiting.querySelectorAll(".seat")) {
      const seat = Number(item.dataset.seat);
      const p = player(seat);
      item.classList.toggle("filled", !!p);
      item.classList.toggle("is-ready", !!p && p.ready);
      item.querySelector(".name").textContent = p ? `${p.name}${seat === race.seat ? " (you)" : ""}` : "Waiting for your friend…";
      const here = p && (p.connected || seat === race.seat);
      item.querySelector(".state").textContent = !p ? "" : p.ready ? "Ready" : here ? "Not ready yet" : "Not here yet";
    }
    const seatTwoEmpty = !player(2);
    el.invite.hidden = !(race.seat === 1 && seatTwoEmpty && race.invite_url);
    if (!el.invite.hidden) el.inviteLink.value = `${location.origin}${race.invite_url}`;
    el.join.hidden = !(page.mode === "invite" && !seated() && seatTwoEmpty);
    const me = player(race.seat);
    el.ready.hidden = !seated() || !me || me.ready;
    let note = "";
    if (seated() && me && me.ready) {
      note = seatTwoEmpty
        ? "You are ready. The countdown starts once your friend joins and is ready too."
        : `You are ready. Waiting for ${nameOf(topSeat())}…`;
    } else if (seated()) {
      note = "Press Ready when you are set. When both are ready, the server counts 3-2-1 for you both.";
    } else if (el.join.hidden) {
      note = "You are watching. The race starts when both players are ready.";
    }
    el.waiting.querySelector(".waiting-note").textContent = note;
  }

  function showBanner(text, kind = "info") {
    el.banner.dataset.kind = kind;
    el.banner.querySelector(".text").textContent = text;
    el.agree.hidden = true;
    el.banner.hidden = false;
  }

  function hideBanner() {
    el.banner.hidden = true;
    el.banner.dataset.kind = "";
  }

  function showCountdown(text, last = false) {
    clearTimeout(countdownTimer);
    const number = el.countdown.querySelector("span");
    number.textContent = text;
    el.countdown.hidden = false;
    el.countdown.classList.toggle("go", last);
    number.classList.remove("tick");
    void number.offsetWidth;
    number.classList.add("tick");
    if (last) {
      countdownTimer = setTimeout(hideCountdown, 800);
      if (seated()) table.controller.setFocus(`p${race.seat}.stock`);
    }
  }

  function hideCountdown() {
    clearTimeout(countdownTimer);
    el.countdown.hidden = true;
  }

  function showConnection(status) {
    clearTimeout(showConnection.timer);
    if (status === "open") {
      el.connection.hidden = true;
      return;
    }
    showConnection.timer = setTimeout(() => {
      el.connection.hidden = false;
      el.connection.textContent = "Reconnecting… the race goes on without you meanwhile.";
    }, 1200);
  }

  // --- the end -----------------------------------------------------------------------

  function resultHeadline() {
    const result = race.result;
    if (!result) return "Race over";
    if (result.winner == null) return "A draw!";
    if (result.winner === race.seat) return "You won!";
    return `${nameOf(result.winner)} won`;
  }

  function resultReason() {
    const result = race.result || {};
    switch (result.reason) {
      case "finished":
        return `${result.winner === race.seat ? "You" : nameOf(result.winner)} played all 52 cards to the foundations.`;
      case "blocked":
        return "Neither player could make any more progress, so the race was scored by cards on the foundations.";
      case "resigned":
        return `${result.resigned === race.seat ? "You" : nameOf(result.resigned)} resigned.`;
      case "agreed":
        return "Both players agreed to stop, so the race was scored by cards on the foundations.";
      default:
        return "";
    }
  }

  function showResult() {
    resultShownFor = race.version;
    const dialog = el.dialog;
    const result = race.result || {};
    const contributions = result.contributions || race.state.contributions || {};
    dialog.classList.toggle("won", result.winner != null && result.winner === race.seat);
    dialog.querySelector("h2").textContent = resultHeadline();
    dialog.querySelector(".result-text").textContent = resultReason();
    for (const seat of [1, 2]) {
      const row = dialog.querySelector(`.score-${seat}`);
      row.className = `score-${seat} seat-${seat}${result.winner === seat ? " winner" : ""}`;
      row.querySelector("dt").textContent = seat === race.seat ? `${nameOf(seat)} (you)` : nameOf(seat);
      row.querySelector("dd").textContent = String(contributions[String(seat)] ?? 0);
    }
    const seedLine = dialog.querySelector(".seed-line");
    seedLine.replaceChildren();
    if (race.seed != null) {
      const seed = document.createElement("code");
      seed.textContent = String(race.seed);
      seedLine.append("Deal seed ", seed, ", now that the race is over: each player's shuffle came from it.");
    }
    const replay = $("replay-link");
    replay.href = `/races/${raceId}/replay/${page.token ? `?token=${encodeURIComponent(page.token)}` : ""}`;
    paintRematch();
    el.status.textContent = resultHeadline();
    el.resign.hidden = true;
    el.offerEnd.hidden = true;
    if (el.banner.dataset.kind !== "info") hideBanner();
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
  }

  function paintRematch() {
    el.rematch.hidden = !seated();
    el.rematch.textContent = race.rematch ? "Join the rematch" : "Rematch";
  }

  async function rematch() {
    if (race.rematch) {
      window.location.assign(`/races/${race.rematch}/`);
      return;
    }
    el.rematch.disabled = true;
    try {
      const next = await api("POST", `/api/races/${raceId}/rematch`);
      window.location.assign(next.url);
    } catch (error) {
      toast(error.message, "error");
      el.rematch.disabled = false;
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
      const joined = await api("POST", `/api/races/${raceId}/join`, body);
      if (input) localStorage.setItem("race-name", body.name);
      // This browser now holds seat 2: the race's own address is its page from now on.
      history.replaceState(null, "", joined.url);
      page.mode = "play";
      page.token = null;
      socket.close();
      race = joined;
      table.set(joined.state);
      paint();
      openSocket();
      el.ready.focus();
    } catch (error) {
      el.joinError.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  }

  function send(type, done) {
    return socket
      .send({ type })
      .then(done)
      .catch((error) => toast(error.message, "error"));
  }

  function resign() {
    const now = performance.now();
    if (now - resignArmed > RESIGN_CONFIRM_MS) {
      resignArmed = now;
      el.resign.textContent = "Really resign?";
      el.resign.classList.add("armed");
      setTimeout(() => {
        el.resign.textContent = "Resign";
        el.resign.classList.remove("armed");
      }, RESIGN_CONFIRM_MS);
      return;
    }
    resignArmed = 0;
    send("resign");
  }

  async function copy(text, what) {
    try {
      await navigator.clipboard.writeText(text);
      toast(`${what} copied.`);
    } catch {
      toast(`${what}: ${text}`);
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
    send("offer_end", () => toast(`You offered to stop and be scored. If ${nameOf(topSeat())} agrees, the race ends.`)),
  );
  el.agree.addEventListener("click", () => send("offer_end"));
  $("copy-invite").addEventListener("click", () => copy(el.inviteLink.value, "Invite link"));
  el.copyWatch.addEventListener("click", () => copy(`${location.origin}${race.watch_url}`, "Watch link"));
  el.rematch.addEventListener("click", rematch);
  $("look").addEventListener("click", () => el.dialog.close());

  const joinName = $("join-name");
  if (joinName && !joinName.value) joinName.value = localStorage.getItem("race-name") || "";

  table.set(race.state);
  paint();
  for (const p of race.players) {
    if (p.seat !== race.seat && !p.connected && race.status === "playing") onPresence({ seat: p.seat, connected: false });
  }
  openSocket();
  // For tests and the curious: read-only in spirit.
  window.patience = {
    table,
    get socket() {
      return socket;
    },
    get race() {
      return race;
    },
  };
}

start();
