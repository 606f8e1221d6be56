/**
 * The race page's views around the table: the two players and their counts, the
 * status line and buttons, the waiting room, the banner (offers, an opponent away),
 * the 3-2-1, and the opponent's compact summary on a phone.
 *
 * Each paints from the race object it is given; none sends anything.
 */

import { bottomSeat, nameOf, player, resultHeadline, seated, topSeat } from "./who.js";

export function paintPlayers(el, race) {
  paintPlayer(el.me, race, bottomSeat(race));
  paintPlayer(el.them, race, topSeat(race));
}

function paintPlayer(box, race, seat) {
  const p = player(race, seat);
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
  box.setAttribute(
    "aria-label",
    `${p ? p.name : "Empty seat"}${seat === race.seat ? " (you)" : ""}: ${count} cards on the foundations`,
  );
}

export function statusWords(race) {
  const both = race.players.length === 2;
  switch (race.status) {
    case "waiting":
      if (!both) return seated(race) ? "Waiting for your friend to join" : "Waiting for a second player";
      return "Waiting for both players to be ready";
    case "countdown":
      return "Get ready…";
    case "playing":
      return seated(race) ? "Race on! No undo." : "Watching the race live";
    default:
      return resultHeadline(race);
  }
}

export function paintControls(el, race) {
  const playing = race.status === "playing";
  const me = player(race, race.seat);
  el.resign.hidden = !seated(race) || !(playing || race.status === "countdown");
  el.offerEnd.hidden = !seated(race) || !playing;
  el.offerEnd.disabled = !!(me && me.offered_end);
  el.offerEnd.textContent = me && me.offered_end ? "Offered to stop" : "Offer to stop";
}

export function createBanner(el) {
  return {
    show(text, kind = "info") {
      el.banner.dataset.kind = kind;
      el.banner.querySelector(".text").textContent = text;
      el.agree.hidden = true;
      el.banner.hidden = false;
    },
    hide() {
      el.banner.hidden = true;
      el.banner.dataset.kind = "";
    },
    get kind() {
      return el.banner.dataset.kind;
    },
  };
}

export function paintOffer(el, banner, race) {
  if (race.status !== "playing") {
    if (banner.kind === "offer") banner.hide();
    return;
  }
  const other = player(race, topSeat(race));
  const me = player(race, race.seat);
  if (seated(race) && other && other.offered_end && me && !me.offered_end) {
    banner.show(
      `${other.name} offers to stop now and be scored: you ${me.contribution}, ${other.name} ${other.contribution}.`,
      "offer",
    );
    el.agree.hidden = false;
  } else if (banner.kind === "offer") {
    banner.hide();
  }
}

export function paintWaiting(el, race, page) {
  const waiting = race.status === "waiting";
  el.waiting.hidden = !waiting;
  if (!waiting) return;
  const sameDeal = race.options && race.options.same_deal;
  el.waiting.querySelector(".waiting-deal").textContent = sameDeal
    ? "Same deal for both: you race on identical layouts, so your opponent's face-up cards are your own face-down ones."
    : "Each player has their own shuffle, as in the rule book.";
  for (const item of el.waiting.querySelectorAll(".seat")) {
    const seat = Number(item.dataset.seat);
    const p = player(race, seat);
    item.classList.toggle("filled", !!p);
    item.classList.toggle("is-ready", !!p && p.ready);
    item.querySelector(".name").textContent = p
      ? `${p.name}${seat === race.seat ? " (you)" : ""}`
      : "Waiting for your friend…";
    const here = p && (p.connected || seat === race.seat);
    item.querySelector(".state").textContent = !p ? "" : p.ready ? "Ready" : here ? "Not ready yet" : "Not here yet";
  }
  const seatTwoEmpty = !player(race, 2);
  el.invite.hidden = !(race.seat === 1 && seatTwoEmpty && race.invite_url);
  if (!el.invite.hidden) el.inviteLink.value = `${location.origin}${race.invite_url}`;
  el.join.hidden = !(page.mode === "invite" && !seated(race) && seatTwoEmpty);
  const me = player(race, race.seat);
  el.ready.hidden = !seated(race) || !me || me.ready;
  let note = "";
  if (seated(race) && me && me.ready) {
    note = seatTwoEmpty
      ? "You are ready. The countdown starts once your friend joins and is ready too."
      : `You are ready. Waiting for ${nameOf(race, topSeat(race))}…`;
  } else if (seated(race)) {
    note = "Press Ready when you are set. When both are ready, the server counts 3-2-1 for you both.";
  } else if (el.join.hidden) {
    note = "You are watching. The race starts when both players are ready.";
  }
  el.waiting.querySelector(".waiting-note").textContent = note;
}

export function createCountdown(el, { onGo }) {
  let timer = 0;
  const hide = () => {
    clearTimeout(timer);
    el.countdown.hidden = true;
  };
  return {
    show(text, last = false) {
      clearTimeout(timer);
      const number = el.countdown.querySelector("span");
      number.textContent = text;
      el.countdown.hidden = false;
      el.countdown.classList.toggle("go", last);
      number.classList.remove("tick");
      void number.offsetWidth;
      number.classList.add("tick");
      if (last) {
        timer = setTimeout(hide, 800);
        onGo();
      }
    },
    hide,
  };
}

/**
 * The opponent in a line, for a phone: their cards on the foundations and what is
 * left in their stock, waste and columns; a button shows their whole layout.
 */
export function paintSummary(el, race) {
  if (!el.summary) return;
  const seat = topSeat(race);
  const p = player(race, seat);
  const piles = (race.state && race.state.piles) || {};
  const count = (id) => {
    const content = piles[`p${seat}.${id}`];
    return typeof content === "number" ? content : (content || []).length;
  };
  let columns = 0;
  for (let t = 1; t <= 7; t++) columns += count(`t${t}`);
  el.summary.querySelector(".summary-text").textContent =
    `${p ? p.name : nameOf(race, seat)}: ${p ? p.contribution : 0} up · stock ${count("stock")} · waste ${count("waste")} · columns ${columns}`;
}
