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

// The player's animation speed setting: 1 normal, 0.6 fast, 1.6 slow, 0 none.
let speed = 1;

export function setSpeed(factor) {
  speed = Number.isFinite(factor) && factor >= 0 ? factor : 1;
}

/** Animations are skipped when the user asked for less motion or nobody can see them. */
export function motionAllowed() {
  return !reducedMotion && speed > 0 && document.visibilityState !== "hidden";
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
    duration: duration * speed,
    delay: delay * speed,
    easing: EASING,
    fill: "backwards",
  });
  const settle = () => {
    if (el.spot) el.style.zIndex = String(el.spot.z);
  };
  animation.finished.then(settle, () => {});
  return animation;
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
    { duration: DURATION * speed, easing: EASING, fill: "forwards" },
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

/**
 * The win cascade: the foundations' cards leap off one by one and bounce down the
 * table, as in the classic. Nothing happens when motion is reduced.
 */
export function cascade(els, area) {
  if (!motionAllowed()) return;
  els.slice(0, 52).forEach((el, i) => {
    const at = el.spot;
    if (!at) return;
    const direction = i % 2 ? 1 : -1;
    const frames = [];
    const steps = 14;
    let x = at.x;
    let y = at.y;
    let vy = -6 - (i % 5);
    const vx = direction * (5 + (i % 7));
    for (let k = 0; k <= steps; k++) {
      frames.push({ transform: translate({ x, y }), offset: k / steps });
      x += vx * 6;
      vy += 5;
      y += vy * 6;
      const floor = area.height - at.h;
      if (y > floor) {
        y = floor;
        vy = -vy * 0.6;
      }
    }
    frames[frames.length - 1] = { ...frames[frames.length - 1], opacity: 0 };
    el.animate(frames, { duration: 1400, delay: 300 + i * 60, easing: "linear" });
  });
}
