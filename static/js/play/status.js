/**
 * The play page's status bar and buttons: time, score, moves, passes left, and which
 * controls may be used now. The clock runs between the server's states and stops
 * while the game is paused.
 *
 * It paints what the game payload says (`describe` for words and pass limits,
 * `can_undo`/`can_redo`); it holds no rule.
 */

import { formatScore, formatTime } from "../ui.js";

// The server counts at most this much of any pause between two changes as play time.
const IDLE_GAP_S = 60;

export function createStatusView(controls) {
  let game = null;
  let clockBase = 0;
  let clockAt = performance.now();
  let pausedAt = 0;

  function elapsedNow() {
    if (!game || game.status !== "playing") return clockBase;
    const until = pausedAt || performance.now();
    return clockBase + Math.min((until - clockAt) / 1000, IDLE_GAP_S);
  }

  function tick() {
    controls.timer.textContent = formatTime(elapsedNow());
  }
  const timer = setInterval(tick, 500);

  function paint(next) {
    game = next;
    clockBase = game.elapsed || 0;
    clockAt = performance.now();
    if (pausedAt) pausedAt = clockAt;
    const view = game.state;
    const scoring = game.options && game.options.scoring;
    const score = game.score ?? view.score;
    controls.scoreBox.hidden = score == null;
    controls.score.textContent = formatScore(score, scoring);
    controls.scoreBox.querySelector("dt").textContent = scoring === "vegas" ? "Vegas" : "Score";
    controls.moves.textContent = String(game.moves_made ?? game.version);
    tick();
    const playing = game.status === "playing";
    controls.autofinish.hidden = !(playing && view.can_auto_finish);
    // A lost game may be undone back into play.
    const undoable = playing || game.status === "lost";
    controls.undo.disabled = !undoable || !(game.can_undo ?? game.version > 0);
    controls.redo.hidden = game.can_redo === undefined;
    controls.redo.disabled = !undoable || !game.can_redo;
    controls.hint.disabled = !playing;
    controls.pause.disabled = !playing;
    controls.abandon.hidden = !playing;
    // How many turn-overs are left, when the game limits them (its description says so).
    const limited = game.describe ? game.describe.passes != null : view.passes_left != null;
    controls.passesBox.hidden = !(limited && view.passes_left != null);
    controls.passes.textContent = String(view.passes_left ?? "");
    controls.winnableBox.hidden = !game.winnable;
  }

  return {
    paint,
    elapsedNow,
    pause() {
      if (!pausedAt) pausedAt = performance.now();
    },
    resume() {
      if (!pausedAt) return;
      // The paused stretch does not count on this clock.
      clockAt += performance.now() - pausedAt;
      pausedAt = 0;
    },
    get paused() {
      return !!pausedAt;
    },
    destroy: () => clearInterval(timer),
  };
}
