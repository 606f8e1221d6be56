/**
 * The play page (/play/<id>/): wires the game's controller to its views.
 *
 * The page arrives with the game's current state embedded and draws it at once; the
 * controller (play/controller.js) then follows the socket. The views are the table
 * (table/), the status bar (play/status.js), the result dialog (play/result.js), the
 * solver's line (play/line.js), the connection notice and the settings. This module
 * only connects them; it holds no rule and no game name.
 */

import { connectionNotice } from "./connection.js";
import { createGameController } from "./play/controller.js";
import { createLineView } from "./play/line.js";
import { createResultView } from "./play/result.js";
import { createStatusView } from "./play/status.js";
import { onSettingsChange, openSettings, SPEEDS } from "./settings.js";
import { play as playSound } from "./sound.js";
import { setSpeed } from "./table/anim.js";
import { createTable } from "./table/table.js";
import { confirmAction, optionsTextOf, shareLink, titleOf, toast } from "./ui.js";
import { refusalSentence } from "./words.js";

const $ = (id) => document.getElementById(id);
const AUTOPLAY_MS = 160;

function start() {
  const page = $("play");
  const initial = JSON.parse($("initial-game").textContent);
  const controls = {
    undo: $("undo"),
    redo: $("redo"),
    hint: $("hint"),
    autofinish: $("autofinish"),
    pause: $("pause"),
    resume: $("resume"),
    abandon: $("abandon"),
    newDeal: $("new-deal"),
    replay: $("replay"),
    settings: $("open-settings"),
    keys: $("open-keys"),
    keysDialog: $("keys"),
    deal: $("deal"),
    timer: $("timer"),
    score: $("score"),
    scoreBox: $("score-box"),
    moves: $("moves"),
    passes: $("passes"),
    passesBox: $("passes-box"),
    message: $("game-message"),
    connection: $("connection"),
    winnableBox: $("winnable-box"),
    lineBar: $("line-bar"),
    lineStep: $("line-step"),
    linePlay: $("line-play"),
    lineBack: $("line-back"),
  };
  let autoplay = false;
  let announcedResult = initial.status !== "playing";

  const showConnection = connectionNotice(controls.connection, {
    waitingWords: "your moves will be sent when the connection is back.",
  });
  const game = createGameController(initial, {
    onStatus: showConnection,
    onGone: () => {
      showMessage("This game belongs to another player or session. Go back to the home page to deal your own.");
      controls.connection.hidden = true;
    },
    onMoved: () => {
      showMessage("This game moved to your account in another tab.", { reload: true });
      controls.connection.hidden = true;
    },
    onProblem: (text) => toast(text, "error"),
  });

  const table = createTable($("table"), {
    onMove: (move) =>
      line.active
        ? Promise.reject(new Error("This is the solver's line. Press “Back to my game” to play."))
        : game.move(move).then((answer) => {
            playSound("place");
            return answer;
          }),
    onRefused: (error, move, context) => {
      playSound("refuse");
      toast(refusalSentence(error, context), "error");
    },
    onNotice: (text) => toast(text),
    onUndo: undo,
    onRedo: redo,
    onHint: hint,
    onPause: togglePause,
    onAutoFinish: () => {
      if (!controls.autofinish.hidden) autoFinish();
    },
    onHelp: () => controls.keysDialog.showModal(),
    paused: () => status.paused,
    description: initial.describe,
    fill: true,
  });
  const status = createStatusView(controls);
  const line = createLineView(controls, {
    page,
    show: (view) => table.set(view),
    onBack: () => {
      table.set(game.current.state, game.current.version);
      if (game.current.status !== "playing") showResult(false);
    },
  });
  const result = createResultView($("result"), {
    onNew: () => deal(false),
    onReplay: () => deal(true),
    onUndo: undo,
    onWatch: (views) => line.watch(views),
    ask: () => game.winnable(),
  });

  onSettingsChange((settings) => {
    table.configure({ leftHanded: settings.leftHanded, cardSize: settings.cardSize });
    setSpeed(SPEEDS[settings.speed] ?? 1);
    autoplay = settings.autoplay;
    maybeAutoplay();
  });
  const coarse = matchMedia("(pointer: coarse)");
  table.configure({ touch: coarse.matches });
  coarse.addEventListener("change", () => table.configure({ touch: coarse.matches }));

  table.set(initial.state, initial.version);
  status.paint(initial);
  // A game paused before this page loaded (a reload, another tab) stays paused here: the
  // server's clock is stopped, so this one starts stopped too, until the player resumes.
  if (initial.paused && initial.status === "playing") {
    status.pause();
    showPaused(true);
  }

  game.subscribe((next, before) => {
    if (next.describe && next.describe !== before.describe) table.describe(next.describe);
    if (!line.active) table.set(next.state, next.version);
    status.paint(next);
    if (before.status === "playing" && next.status !== "playing" && !announcedResult) {
      announcedResult = true;
      if (next.status === "won") playSound("win");
      showResult(true);
    } else if (next.status === "playing") {
      announcedResult = false;
      controls.message.hidden = true;
      result.close();
    } else {
      result.update(next);
    }
    if (next.state.can_auto_finish && !before.state.can_auto_finish && next.status === "playing") {
      toast("Every card can go up now: press Auto-finish (A).");
    }
    maybeAutoplay();
  });

  function showMessage(text, { reload = false } = {}) {
    controls.message.replaceChildren(text);
    if (reload) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn btn-primary";
      button.textContent = "Reload";
      button.addEventListener("click", () => location.reload());
      controls.message.append(" ", button);
    }
    controls.message.hidden = false;
  }

  function showResult(celebrate) {
    const message = result.show(game.current, { celebrate, onCelebrate: () => table.celebrate() });
    showMessage(message);
  }

  /** With auto-play on, a card the server calls safe goes up by itself, as a normal move. */
  function maybeAutoplay() {
    const current = game.current;
    if (!autoplay || line.active || status.paused || current.status !== "playing") return;
    if (!current.safe_moves || !current.safe_moves.length || game.pending || table.pending) return;
    const version = current.version;
    setTimeout(() => {
      const now = game.current;
      if (now.version !== version || game.pending || table.pending || !autoplay || status.paused) return;
      table.controller.attemptMove(now.safe_moves[0]);
    }, AUTOPLAY_MS);
  }

  // ---- actions

  function undo() {
    if (controls.undo.disabled) return;
    if (line.stop()) table.set(game.current.state, game.current.version);
    game.undo().catch((error) => toast(refusalSentence(error), "error"));
  }

  function redo() {
    if (controls.redo.disabled || controls.redo.hidden) return;
    game.redo().catch((error) => toast(refusalSentence(error), "error"));
  }

  async function hint() {
    if (controls.hint.disabled) return;
    try {
      const answer = await game.hint();
      if (answer.move) table.showHint(answer.move);
      else if (answer.lost) toast("No useful move: the game is lost. A new deal may be the way on.");
      else toast("No useful move found. A new deal may be the way on.");
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function autoFinish() {
    // The server plays every card up; that can take a moment, so say so meanwhile.
    controls.autofinish.disabled = true;
    controls.autofinish.setAttribute("aria-busy", "true");
    game
      .autoFinish()
      .catch((error) => toast(refusalSentence(error), "error"))
      .finally(() => {
        controls.autofinish.disabled = false;
        controls.autofinish.removeAttribute("aria-busy");
      });
  }

  function togglePause() {
    // The server's clock stops and starts with this one (a lost message does no harm:
    // the next move resumes the game there).
    const tell = (promise) => promise.catch(() => {});
    if (status.paused) {
      status.resume();
      tell(game.resume());
      showPaused(false);
      table.focus();
      maybeAutoplay();
      return;
    }
    if (controls.pause.disabled) return;
    status.pause();
    tell(game.pause());
    showPaused(true);
    controls.resume.focus();
  }

  /** The cover over the table and the pressed Pause button (the clock is status's). */
  function showPaused(paused) {
    page.classList.toggle("paused", paused);
    $("paused").hidden = !paused;
    controls.pause.setAttribute("aria-pressed", String(paused));
  }

  const inPlay = () => game.current.status === "playing" && (game.current.moves_made ?? game.current.version) > 0;

  async function deal(sameDeal) {
    if (inPlay()) {
      const sure = await confirmAction(sameDeal ? "Start this deal again?" : "Deal a new game?", {
        confirm: sameDeal ? "Start again" : "Deal",
        detail: "This game stays in your list; you can come back to it.",
      });
      if (!sure) return;
    }
    try {
      const created = await game.deal(sameDeal);
      window.location.assign(created.url);
    } catch (error) {
      toast(error.message, "error");
    }
  }

  async function abandon() {
    const sure = await confirmAction("Give up this game?", {
      confirm: "Give up",
      detail: "It counts as lost in your statistics and cannot be played on.",
    });
    if (!sure) return;
    try {
      await game.abandon();
      game.socket.raw({ type: "sync" });
    } catch (error) {
      toast(error.message, "error");
    }
  }

  function shareDeal() {
    const current = game.current;
    const params = new URLSearchParams({ game: current.game, deal: String(current.deal) });
    const options = JSON.stringify(current.options || {});
    if (options !== "{}") params.set("options", options);
    shareLink(`${location.origin}/?${params}`, {
      title: `${titleOf(current)} deal #${current.deal}`,
      what: `Link to deal #${current.deal}`,
    });
  }

  // The "More" menu closes once an item is chosen, or on a click elsewhere.
  const menu = page.querySelector(".more");
  menu.querySelector(".menu").addEventListener("click", () => menu.removeAttribute("open"));
  document.addEventListener("pointerdown", (event) => {
    if (menu.open && !menu.contains(event.target)) menu.removeAttribute("open");
  });

  controls.undo.addEventListener("click", undo);
  controls.redo.addEventListener("click", redo);
  controls.hint.addEventListener("click", hint);
  controls.autofinish.addEventListener("click", autoFinish);
  controls.pause.addEventListener("click", togglePause);
  controls.resume.addEventListener("click", togglePause);
  controls.abandon.addEventListener("click", abandon);
  controls.newDeal.addEventListener("click", () => deal(false));
  controls.replay.addEventListener("click", () => deal(true));
  controls.deal.addEventListener("click", shareDeal);
  controls.settings.addEventListener("click", openSettings);
  controls.keys.addEventListener("click", () => controls.keysDialog.showModal());
  controls.keysDialog.querySelector(".k-close").addEventListener("click", () => controls.keysDialog.close());

  if (initial.status !== "playing") showResult(false);

  const options = optionsTextOf(initial);
  page.setAttribute("aria-label", `${titleOf(initial)}${options ? ` (${options})` : ""}, deal ${initial.deal}`);
  // For tests and the curious: the socket and table, read-only in spirit.
  window.patience = {
    socket: game.socket,
    table,
    get game() {
      return game.current;
    },
    get watching() {
      return line.progress;
    },
  };
}

start();
