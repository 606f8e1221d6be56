/**
 * Watching the solver's winning line: the views the server sent, one after another,
 * with play, pause and "Back to my game".
 *
 *   const line = createLineView(controls, {show: (view) => table.set(view), onBack});
 *   line.watch(views); line.active; line.stop()
 */

const LINE_STEP_MS = 450;

export function createLineView(controls, { show, onBack, page }) {
  let watching = null; // {views, step, timer}

  function showStep(step) {
    const { views } = watching;
    watching.step = step;
    show(views[step]);
    const last = views.length - 1;
    controls.lineStep.textContent =
      step === 0
        ? "The solver's winning line: the deal, before the first move."
        : `The solver's winning line: move ${step} of ${last}${step === last ? ". Won." : "."}`;
    if (step === last) pause();
  }

  function play() {
    if (!watching) return;
    if (watching.step === watching.views.length - 1) showStep(0);
    clearInterval(watching.timer);
    watching.timer = setInterval(() => showStep(watching.step + 1), LINE_STEP_MS);
    controls.linePlay.textContent = "Pause";
  }

  function pause() {
    clearInterval(watching.timer);
    watching.timer = 0;
    controls.linePlay.textContent = "Play";
  }

  function stop() {
    if (!watching) return false;
    clearInterval(watching.timer);
    watching = null;
    controls.lineBar.hidden = true;
    page.classList.remove("watching");
    return true;
  }

  controls.linePlay.addEventListener("click", () => (watching && watching.timer ? pause() : play()));
  controls.lineBack.addEventListener("click", () => {
    stop();
    onBack();
  });

  return {
    watch(views) {
      stop();
      watching = { views, step: 0, timer: 0 };
      controls.lineBar.hidden = false;
      page.classList.add("watching");
      showStep(0);
      play();
      controls.lineBack.focus();
    },
    stop,
    get active() {
      return !!watching;
    },
    get progress() {
      return watching && { step: watching.step, steps: watching.views.length - 1 };
    },
  };
}
