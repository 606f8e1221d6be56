/**
 * The end-of-game dialog: the result, the figures, "Was this winnable?" (the server's
 * solver) and the way on (new deal, replay, undo a lost game, watch the winning line).
 *
 *   const result = createResultView(dialog, {onNew, onReplay, onUndo, onWatch, ask});
 *   result.show(game, {celebrate})
 */

import { formatScore, formatTime, titleOf } from "../ui.js";

const RESULTS = {
  won: {
    title: "You won!",
    text: (game) => `${titleOf(game)}, deal #${game.deal}, solved.`,
    message: (game) => `You won this game in ${formatTime(game.elapsed || 0)}.`,
  },
  lost: {
    title: "No more moves",
    text: () => "Nothing left to play can change this deal. Undo a few moves, try it again, or deal a new one.",
    message: () => "This game is lost: no move can change it any more. Undo to try another way.",
  },
  abandoned: {
    title: "Game given up",
    text: () => "You gave this game up. It counts as lost in your statistics.",
    message: () => "This game was given up.",
  },
};

const VERDICTS = {
  solved: (answer) => `Yes. A solver that sees every card found a win from the deal in ${answer.moves.length} moves.`,
  unsolvable: () => "No. A solver that sees every card proved that no way of playing this deal wins.",
  unknown: () => "The solver could not decide within its few seconds. Nobody knows yet.",
};

export function createResultView(dialog, actions) {
  const box = dialog.querySelector(".r-verdict");
  const ask = box.querySelector(".r-ask");
  const answerText = box.querySelector(".r-answer");
  const watch = box.querySelector(".r-watch");
  let verdict = null;
  let game = null;

  function resetVerdict() {
    box.hidden = game.status !== "lost";
    if (verdict) return; // already answered: the answer is about the deal, not the moves
    ask.hidden = false;
    ask.disabled = false;
    answerText.textContent = "";
    watch.hidden = true;
  }

  async function askWinnable() {
    ask.disabled = true;
    ask.setAttribute("aria-busy", "true");
    answerText.textContent = "Thinking… this can take a few seconds.";
    try {
      const answer = await actions.ask();
      verdict = answer;
      ask.hidden = true;
      answerText.textContent = (VERDICTS[answer.status] || VERDICTS.unknown)(answer);
      watch.hidden = !(answer.status === "solved" && answer.views && answer.views.length);
    } catch (error) {
      answerText.textContent = error.message;
      ask.disabled = false;
    } finally {
      ask.removeAttribute("aria-busy");
    }
  }

  function open() {
    if (dialog.open || game.status === "playing") return;
    dialog.showModal();
  }

  dialog.querySelector(".r-new").addEventListener("click", actions.onNew);
  dialog.querySelector(".r-replay").addEventListener("click", actions.onReplay);
  dialog.querySelector(".r-close").addEventListener("click", () => dialog.close());
  dialog.querySelector(".r-undo").addEventListener("click", () => {
    dialog.close();
    actions.onUndo();
  });
  ask.addEventListener("click", askWinnable);
  watch.addEventListener("click", () => {
    if (!verdict || !verdict.views) return;
    dialog.close();
    actions.onWatch(verdict.views);
  });

  return {
    /** Fill the dialog for `next` and open it; `celebrate` waits for the win cascade. */
    show(next, { celebrate = false, onCelebrate = null } = {}) {
      game = next;
      const won = game.status === "won";
      const result = RESULTS[game.status] || RESULTS.abandoned;
      dialog.classList.toggle("won", won);
      dialog.querySelector("h2").textContent = result.title;
      dialog.querySelector(".result-text").textContent = result.text(game);
      dialog.querySelector(".r-undo").hidden = game.status !== "lost";
      resetVerdict();
      dialog.querySelector(".r-time").textContent = formatTime(game.elapsed || 0);
      dialog.querySelector(".r-moves").textContent = String(game.moves_made ?? game.version);
      const score = game.score ?? game.state.score;
      dialog.querySelector(".r-score-row").hidden = score == null;
      dialog.querySelector(".r-score").textContent = formatScore(score, game.options && game.options.scoring);
      const calm = matchMedia("(prefers-reduced-motion: reduce)").matches;
      if (celebrate && won && !calm) {
        // Let the last cards land, let the cascade run, then show the result.
        setTimeout(() => onCelebrate && onCelebrate(), 500);
        setTimeout(open, 2600);
      } else {
        open();
      }
      return result.message(game);
    },
    close() {
      if (dialog.open) dialog.close();
    },
  };
}
