/**
 * The replay of a finished race (/races/<id>/replay/): both layouts side by side with
 * the shared foundations between them, stepped move by move, and the deal's seed.
 *
 * The server sends the table as everyone saw it after each move (face-down cards stay
 * face down, as they lay), so this page only chooses which frame to draw. It never
 * works out a move itself.
 */

import { api } from "../net.js";
import { cardName } from "../table/cards.js";
import { addArrangement, CARD_RATIO, FAN, pileLabel } from "../table/layout.js";
import { createTable } from "../table/table.js";
import { toast } from "../ui.js";

const $ = (id) => document.getElementById(id);
const H = CARD_RATIO;
const GAP = 0.14;
const STEP = 1 + GAP;
const ROW_GAP = 0.22;
const MIDDLE_GAP = 0.6;
const PLAY_MS = 650;
const GAME = "double-replay";

function range(n) {
  return Array.from({ length: n }, (_, i) => i + 1);
}

/** Seat 1 on the left, the eight foundations in two columns, seat 2 on the right. */
function sideBySide() {
  const pile = (id, kind, x, y, extra = {}) => ({ id, kind, x, y, scale: 1, fan: "none", ...extra });
  const seatWidth = 7 * STEP - GAP;
  const seat = (number, x0) => [
    pile(`p${number}.stock`, "stock", x0, 0, { badge: true, owner: number }),
    pile(`p${number}.waste`, "waste", x0 + STEP, 0, { fan: "right", show: 3, owner: number }),
    ...range(7).map((t) =>
      pile(`p${number}.t${t}`, "tableau", x0 + (t - 1) * STEP, H + ROW_GAP, { fan: "down", owner: number }),
    ),
  ];
  const middle = seatWidth + MIDDLE_GAP;
  const right = middle + 2 * STEP - GAP + MIDDLE_GAP;
  const piles = [
    ...seat(1, 0),
    ...range(8).map((f) =>
      pile(`f${f}`, "foundation", middle + ((f - 1) % 2) * STEP, Math.floor((f - 1) / 2) * (H + ROW_GAP)),
    ),
    ...seat(2, right),
  ];
  const tableauRoom = H + ROW_GAP + H + 8 * FAN.up * H;
  return { piles, width: right + seatWidth, height: Math.max(tableauRoom, 4 * H + 3 * ROW_GAP) };
}

function describeMove(entry, before, names) {
  const { from, to, count = 1 } = entry.move;
  const who = names[entry.seat];
  const view = { game: GAME, player: null };
  if (from.endsWith(".stock")) return `${who} drew from the stock`;
  if (to.endsWith(".stock")) return `${who} turned the waste over`;
  const source = before.piles[from];
  const card = Array.isArray(source) ? source[source.length - count] : null;
  const what = card ? cardName(card) : "a card";
  const more = count > 1 ? ` and ${count - 1} more` : "";
  return `${who}: ${what}${more} from ${pileLabel(from, view).replace(/^Player \d /, "")} to ${pileLabel(to, view)
    .replace(/^Player \d /, "")
    .toLowerCase()}`;
}

async function start() {
  addArrangement(GAME, sideBySide);
  const page = JSON.parse($("replay-page").textContent);
  const query = page.token ? `?token=${encodeURIComponent(page.token)}` : "";
  let replay;
  try {
    replay = await api("GET", `/api/races/${page.race_id}/replay${query}`);
  } catch (error) {
    $("replay-info").textContent = error.message;
    return;
  }
  const names = { 1: "Player 1", 2: "Player 2" };
  for (const p of replay.players) names[p.seat] = p.name;
  const frames = replay.frames.map((frame) => ({
    game: GAME,
    options: replay.options,
    player: null,
    piles: frame.piles,
    contributions: frame.contributions,
    moves: [],
  }));
  const last = frames.length - 1;
  let step = 0;
  let playing = 0;

  const table = createTable($("replay-table"), {});
  const scrub = $("scrub");
  scrub.max = String(last);

  const result = replay.result || {};
  const winner = result.winner ? names[result.winner] : null;
  const reasons = {
    finished: `${winner} played all 52 cards`,
    blocked: "both were blocked; scored by cards on the foundations",
    resigned: `${names[result.resigned]} resigned`,
    agreed: "both agreed to stop",
  };
  $("replay-info").textContent =
    `${names[1]} vs ${names[2]} · ${winner ? `${winner} won` : "a draw"} (${reasons[result.reason] || result.reason}) · ` +
    `${replay.moves.length} moves · deal seed ${replay.seed}${replay.options.same_deal ? " (same deal for both)" : ""}`;

  function show(next) {
    step = Math.max(0, Math.min(last, next));
    const view = frames[step];
    table.set(view);
    scrub.value = String(step);
    const entry = step > 0 ? replay.moves[step - 1] : null;
    $("step").textContent = `${step} / ${last}`;
    const words = entry ? describeMove(entry, frames[step - 1], names) : "The deal, before the first move.";
    $("replay-move").textContent = entry ? `Move ${step}. ${words}` : words;
    for (const seat of [1, 2]) {
      const box = $(`replay-p${seat}`);
      box.querySelector(".name").textContent = names[seat];
      box.querySelector(".count").textContent = String(view.contributions[String(seat)]);
      box.classList.toggle("moving", !!entry && entry.seat === seat);
    }
    document.title = `Race replay, move ${step} of ${last} · Patience`;
    if (step === last) stop();
  }

  function stop() {
    clearInterval(playing);
    playing = 0;
    $("play").textContent = "Play";
  }

  function play() {
    if (playing) {
      stop();
      return;
    }
    if (step === last) show(0);
    $("play").textContent = "Pause";
    playing = setInterval(() => show(step + 1), PLAY_MS);
  }

  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(step - 1));
  $("next").addEventListener("click", () => show(step + 1));
  $("last").addEventListener("click", () => show(last));
  $("play").addEventListener("click", play);
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement && event.target !== scrub) return;
    const keys = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: last };
    if (event.key in keys) {
      event.preventDefault();
      show(keys[event.key]);
    } else if (event.key === " ") {
      event.preventDefault();
      play();
    }
  });
  show(0);
  if (!frames.length) toast("This race has no moves to replay.");
  window.patience = { table, show, get step() { return step; } };
}

start();
