/**
 * The play page (/play/<id>/): wires the table to the game's socket and the controls.
 *
 * The page arrives with the game's current state embedded, draws it at once, then
 * follows the socket. Moves go out over the socket and are settled by the server;
 * the table only ever draws what the server sent. Hints, new deals and replays use
 * the HTTP API. After a lost game, "Was this winnable?" asks the server's solver; its
 * winning line is watched by drawing the views the server sends, one after another.
 *
 * This module knows the page's controls and the API; card drawing is table/'s job.
 */

import { api, GameSocket } from "./net.js";
import { createTable } from "./table/table.js";
import { describeOptions, formatScore, formatTime, GAME_TITLES, toast } from "./ui.js";

// The server counts at most this much of any pause between two changes as play time.
const IDLE_GAP_S = 60;
// Time between two moves of the solver's winning line.
const LINE_STEP_MS = 450;

const $ = (id) => document.getElementById(id);

function start() {
  const page = $("play");
  const initial = JSON.parse($("initial-game").textContent);
  const gameId = initial.id;
  let game = initial;
  let clockBase = initial.elapsed || 0;
  let clockAt = performance.now();
  let announcedResult = initial.status !== "playing";

  const controls = {
    undo: $("undo"),
    hint: $("hint"),
    autofinish: $("autofinish"),
    newDeal: $("new-deal"),
    replay: $("replay"),
    deal: $("deal"),
    timer: $("timer"),
    score: $("score"),
    scoreBox: $("score-box"),
    moves: $("moves"),
    passes: $("passes"),
    passesBox: $("passes-box"),
    message: $("game-message"),
    connection: $("connection"),
    dialog: $("result"),
    winnableBox: $("winnable-box"),
    lineBar: $("line-bar"),
    lineStep: $("line-step"),
    linePlay: $("line-play"),
    lineBack: $("line-back"),
  };
  // The solver's winning line while it is being watched: {views, step, timer}; else null.
  let watching = null;

  // The table before the socket, which draws every state it receives on it.
  const table = createTable($("table"), {
    onMove: (move) =>
      watching
        ? Promise.reject(new Error("This is the solver's line. Press “Back to my game” to play."))
        : socket.send({ type: "move", move }),
    onRefused: (reason) => toast(reason, "error"),
    onNotice: (text) => toast(text),
    onUndo: undo,
    onHint: hint,
    onAutoFinish: () => {
      if (!controls.autofinish.hidden) autoFinish();
    },
    onHelp: () => {
      const help = document.querySelector(".keys-help");
      help.open = true;
      help.querySelector("summary").focus();
    },
  });
  const socket = new GameSocket(`/ws/games/${gameId}/`, {
    onState: applyState,
    onStatus: showConnection,
    onGone: () => {
      showMessage("This game belongs to another player or session. Go back to the home page to deal your own.");
      controls.connection.hidden = true;
    },
    onProblem: (text) => toast(text, "error"),
  });
  socket.version = initial.version;

  table.set(initial.state);
  paintStatus();

  function applyState(message) {
    const before = game;
    game = message;
    clockBase = message.elapsed || 0;
    clockAt = performance.now();
    if (!watching) table.set(message.state);
    paintStatus();
    if (before.status === "playing" && message.status !== "playing" && !announcedResult) {
      announcedResult = true;
      showResult(true);
    } else if (message.status === "playing") {
      announcedResult = false;
      controls.message.hidden = true;
      if (controls.dialog.open) controls.dialog.close();
    }
    if (message.state.can_auto_finish && !before.state.can_auto_finish && message.status === "playing") {
      toast("Every card can go up now: press Auto-finish (A).");
    }
  }

  function elapsedNow() {
    if (game.status !== "playing") return clockBase;
    return clockBase + Math.min((performance.now() - clockAt) / 1000, IDLE_GAP_S);
  }

  function paintStatus() {
    const view = game.state;
    const scoring = game.options && game.options.scoring;
    const score = game.score ?? view.score;
    controls.scoreBox.hidden = score == null;
    controls.score.textContent = formatScore(score, scoring);
    controls.scoreBox.querySelector("dt").textContent = scoring === "vegas" ? "Vegas" : "Score";
    controls.moves.textContent = String(game.moves_made ?? game.version);
    controls.timer.textContent = formatTime(elapsedNow());
    const playing = game.status === "playing";
    controls.autofinish.hidden = !(playing && view.can_auto_finish);
    // A lost game may be undone back into play. "can_undo" when the server says so;
    // otherwise any change so far may be undone.
    const undoable = playing || game.status === "lost";
    controls.undo.disabled = !undoable || !(game.can_undo ?? game.version > 0);
    controls.hint.disabled = !playing;
    // Klondike with a limit on passes: how many times the waste may still be turned over.
    const limited = game.game === "klondike" && game.options && game.options.passes != null;
    controls.passesBox.hidden = !(limited && view.passes_left != null);
    controls.passes.textContent = String(view.passes_left ?? "");
    controls.winnableBox.hidden = !game.winnable;
  }

  function showMessage(text) {
    controls.message.textContent = text;
    controls.message.hidden = false;
  }

  const RESULTS = {
    won: {
      title: "You won!",
      text: () => `${GAME_TITLES[game.game]}, deal #${game.deal}, solved.`,
      message: () => `You won this game in ${formatTime(game.elapsed || 0)}.`,
    },
    lost: {
      title: "No more moves",
      text: () => "Nothing left to play can change this deal. Undo a few moves, try it again, or deal a new one.",
      message: () => "This game is lost: no move can change it any more. Undo to try another way.",
    },
    abandoned: {
      title: "Game stopped",
      text: () => "This game was stopped before it was finished.",
      message: () => "This game was stopped.",
    },
  };

  function showResult(celebrate) {
    const won = game.status === "won";
    const result = RESULTS[game.status] || RESULTS.abandoned;
    const dialog = controls.dialog;
    dialog.classList.toggle("won", won);
    dialog.querySelector("h2").textContent = result.title;
    dialog.querySelector(".result-text").textContent = result.text();
    dialog.querySelector(".r-undo").hidden = game.status !== "lost";
    resetVerdict();
    dialog.querySelector(".r-time").textContent = formatTime(game.elapsed || 0);
    dialog.querySelector(".r-moves").textContent = String(game.moves_made ?? game.version);
    const scoreRow = dialog.querySelector(".r-score-row");
    const score = game.score ?? game.state.score;
    scoreRow.hidden = score == null;
    dialog.querySelector(".r-score").textContent = formatScore(score, game.options && game.options.scoring);
    showMessage(result.message());
    const open = () => {
      if (dialog.open || game.status === "playing") return;
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    };
    const calm = matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (celebrate && won && !calm) {
      // Let the last cards land, let the kings hop, then show the result.
      setTimeout(() => table.celebrate(), 700);
      setTimeout(open, 1900);
    } else {
      open();
    }
  }

  function showConnection(status) {
    // Only worry the player when a connection that worked is gone for a moment.
    clearTimeout(showConnection.timer);
    if (status === "open") {
      controls.connection.hidden = true;
      return;
    }
    showConnection.timer = setTimeout(() => {
      controls.connection.hidden = false;
      controls.connection.textContent = socket.pending
        ? "Reconnecting… your moves will be sent when the connection is back."
        : "Reconnecting…";
    }, 1200);
  }

  // ---- "Was this winnable?" and the solver's winning line

  let verdict = null;

  function resetVerdict() {
    const box = controls.dialog.querySelector(".r-verdict");
    box.hidden = game.status !== "lost";
    if (verdict) return; // already answered: the answer is about the deal, not the moves
    box.querySelector(".r-ask").hidden = false;
    box.querySelector(".r-ask").disabled = false;
    box.querySelector(".r-answer").textContent = "";
    box.querySelector(".r-watch").hidden = true;
  }

  const VERDICTS = {
    solved: (answer) =>
      `Yes. A solver that sees every card found a win from the deal in ${answer.moves.length} moves.`,
    unsolvable: () => "No. A solver that sees every card proved that no way of playing this deal wins.",
    unknown: () => "The solver could not decide within its few seconds. Nobody knows yet.",
  };

  async function askWinnable() {
    const box = controls.dialog.querySelector(".r-verdict");
    const ask = box.querySelector(".r-ask");
    const answerText = box.querySelector(".r-answer");
    ask.disabled = true;
    ask.setAttribute("aria-busy", "true");
    answerText.textContent = "Thinking… this can take a few seconds.";
    try {
      const answer = await api("GET", `/api/games/${gameId}/winnable?views=1`);
      verdict = { answer };
      ask.hidden = true;
      answerText.textContent = (VERDICTS[answer.status] || VERDICTS.unknown)(answer);
      box.querySelector(".r-watch").hidden = !(answer.status === "solved" && answer.views && answer.views.length);
    } catch (error) {
      answerText.textContent = error.message;
      ask.disabled = false;
    } finally {
      ask.removeAttribute("aria-busy");
    }
  }

  function watchLine() {
    if (!verdict || !verdict.answer.views) return;
    controls.dialog.close();
    stopWatching(false);
    watching = { views: verdict.answer.views, step: 0, timer: 0 };
    controls.lineBar.hidden = false;
    page.classList.add("watching");
    showLineStep(0);
    playLine();
    controls.lineBack.focus();
  }

  function showLineStep(step) {
    const { views } = watching;
    watching.step = step;
    table.set(views[step]);
    const last = views.length - 1;
    controls.lineStep.textContent =
      step === 0
        ? "The solver's winning line: the deal, before the first move."
        : `The solver's winning line: move ${step} of ${last}${step === last ? ". Won." : "."}`;
    if (step === last) pauseLine();
  }

  function playLine() {
    if (!watching) return;
    if (watching.step === watching.views.length - 1) showLineStep(0);
    clearInterval(watching.timer);
    watching.timer = setInterval(() => showLineStep(watching.step + 1), LINE_STEP_MS);
    controls.linePlay.textContent = "Pause";
  }

  function pauseLine() {
    clearInterval(watching.timer);
    watching.timer = 0;
    controls.linePlay.textContent = "Play";
  }

  function stopWatching(redraw = true) {
    if (!watching) return;
    clearInterval(watching.timer);
    watching = null;
    controls.lineBar.hidden = true;
    page.classList.remove("watching");
    if (redraw) table.set(game.state);
  }

  function undo() {
    if (controls.undo.disabled) return;
    if (watching) stopWatching();
    socket.send({ type: "undo" }).catch((error) => toast(error.message, "error"));
  }

  async function hint() {
    if (controls.hint.disabled) return;
    try {
      const answer = await api("GET", `/api/games/${gameId}/hint`);
      if (answer.move) table.showHint(answer.move);
      else toast("No useful move found. A new deal may be the way on.");
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function autoFinish() {
    // The server plays every card up; that can take a moment, so say so meanwhile.
    controls.autofinish.disabled = true;
    controls.autofinish.setAttribute("aria-busy", "true");
    socket
      .send({ type: "autofinish" })
      .catch((error) => toast(error.message, "error"))
      .finally(() => {
        controls.autofinish.disabled = false;
        controls.autofinish.removeAttribute("aria-busy");
      });
  }

  async function deal(sameDeal) {
    const body = { game: game.game, options: game.options };
    if (sameDeal) body.deal = game.deal;
    try {
      const created = await api("POST", "/api/games", body);
      window.location.assign(created.url);
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function copyDeal() {
    const params = new URLSearchParams({ game: game.game, deal: String(game.deal) });
    const options = JSON.stringify(game.options || {});
    if (options !== "{}") params.set("options", options);
    const link = `${location.origin}/?${params}`;
    try {
      await navigator.clipboard.writeText(link);
      toast(`Link to deal #${game.deal} copied. Anyone can play this same deal from it.`);
    } catch {
      toast(`This is deal #${game.deal}. Type the number on the home page to play it again.`);
    }
  }

  controls.undo.addEventListener("click", undo);
  controls.hint.addEventListener("click", hint);
  controls.autofinish.addEventListener("click", autoFinish);
  controls.newDeal.addEventListener("click", () => deal(false));
  controls.replay.addEventListener("click", () => deal(true));
  controls.deal.addEventListener("click", copyDeal);
  controls.dialog.querySelector(".r-new").addEventListener("click", () => deal(false));
  controls.dialog.querySelector(".r-replay").addEventListener("click", () => deal(true));
  controls.dialog.querySelector(".r-close").addEventListener("click", () => controls.dialog.close());
  controls.dialog.querySelector(".r-ask").addEventListener("click", askWinnable);
  controls.dialog.querySelector(".r-watch").addEventListener("click", watchLine);
  controls.linePlay.addEventListener("click", () => (watching && watching.timer ? pauseLine() : playLine()));
  controls.lineBack.addEventListener("click", () => {
    stopWatching();
    if (game.status !== "playing") showResult(false);
  });
  controls.dialog.querySelector(".r-undo").addEventListener("click", () => {
    controls.dialog.close();
    undo();
  });

  setInterval(() => {
    controls.timer.textContent = formatTime(elapsedNow());
  }, 500);

  // Last, once every constant above is initialised (RESULTS, VERDICTS...).
  if (initial.status !== "playing") showResult(false);

  const title = `${GAME_TITLES[game.game]}${describeOptions(game.game, game.options) ? ` (${describeOptions(game.game, game.options)})` : ""}`;
  page.setAttribute("aria-label", `${title}, deal ${game.deal}`);
  // For tests and the curious: the socket and table, read-only in spirit.
  window.patience = {
    socket,
    table,
    get game() {
      return game;
    },
    get watching() {
      return watching && { step: watching.step, steps: watching.views.length - 1 };
    },
  };
}

start();
