/**
 * Short FLIP animations for cards, through the Web Animations API.
 *
 * The renderer puts a card where it now belongs, then asks this module to play the
 * motion from where the card was seen last (first, last, invert, play). Nothing here
 * knows about piles or views; it moves elements between points.
 */

export const DURATION = 190;
const EASING = "cubic-bezier(.25,.8,.3,1)";
const FLYING_Z = 3000;

const reducedMotion =
  typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Animations are skipped when the user asked for less motion or nobody can see them. */
export function motionAllowed() {
  return !reducedMotion && document.visibilityState !== "hidden";
}

export function translate(point) {
  return `translate(${point.x}px, ${point.y}px)`;
}

/** Where the element is drawn right now, even halfway through an animation. */
export function visiblePoint(el, fallback) {
  if (el.getAnimations && el.getAnimations().length) {
    const matrix = new DOMMatrixReadOnly(getComputedStyle(el).transform);
    return { x: matrix.m41, y: matrix.m42 };
  }
  return fallback;
}

function stop(el) {
  if (el.getAnimations) for (const running of el.getAnimations()) running.cancel();
}

/** Place `el` at `to`, animating from `from`; `flip` also turns it over on the way. */
export function slide(el, from, to, { delay = 0, flip = false, z = 0, duration = DURATION } = {}) {
  stop(el);
  el.style.transform = translate(to);
  if (!motionAllowed() || (from.x === to.x && from.y === to.y && !flip)) return null;
  // Fly above every resting card, then drop back to the pile's own stacking order.
  el.style.zIndex = String(FLYING_Z + z);
  const start = flip ? `${translate(from)} scaleX(0.06)` : translate(from);
  const animation = el.animate([{ transform: start }, { transform: translate(to) }], {
    duration,
    delay,
    easing: EASING,
    fill: "backwards",
  });
  const settle = () => {
    if (el.spot) el.style.zIndex = String(el.spot.z);
  };
  animation.finished.then(settle, () => {});
  return animation;
}

/** Turn a card over where it stands. */
export function flipInPlace(el, at) {
  return slide(el, at, at, { flip: true, duration: 160 });
}

/** Send `el` to `to` (or fade it where it is) and then take it out of the page. */
export function leave(el, to) {
  stop(el);
  if (!motionAllowed()) {
    el.remove();
    return;
  }
  const from = visiblePoint(el, el.spot);
  const end = to || from;
  el.style.zIndex = String(FLYING_Z);
  const animation = el.animate(
    [
      { transform: translate(from), opacity: 1 },
      { transform: translate(end), opacity: to ? 1 : 0 },
    ],
    { duration: DURATION, easing: EASING, fill: "forwards" },
  );
  animation.finished.then(
    () => el.remove(),
    () => el.remove(),
  );
}

/** A brief shake, for a pick-up that cannot go anywhere. */
export function nudge(el) {
  if (!motionAllowed() || !el.spot) return;
  const at = el.spot;
  el.animate(
    [
      { transform: translate(at) },
      { transform: translate({ x: at.x - 4, y: at.y }) },
      { transform: translate({ x: at.x + 4, y: at.y }) },
      { transform: translate(at) },
    ],
    { duration: 180, easing: "ease-in-out" },
  );
}

/** A little victory hop of the given cards, one after another. */
export function celebrate(els) {
  if (!motionAllowed()) return;
  els.forEach((el, i) => {
    const at = el.spot;
    if (!at) return;
    const up = { x: at.x, y: at.y - Math.round(at.h * 0.25) };
    el.animate(
      [
        { transform: translate(at) },
        { transform: translate(up), offset: 0.35 },
        { transform: translate(at), offset: 0.7 },
        { transform: translate({ x: at.x, y: at.y - Math.round(at.h * 0.08) }), offset: 0.85 },
        { transform: translate(at) },
      ],
      { duration: 650, delay: 250 + i * 110, easing: "ease-in-out" },
    );
  });
}
