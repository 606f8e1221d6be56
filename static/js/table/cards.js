/**
 * Card faces and backs: how a card text such as "10H" or "7H:1" looks and is named.
 *
 * Faces are inline SVG drawn in a 100 x 140 box, so they stay crisp at any size; the
 * suit shapes are <symbol>s defined once per document. Every face carries two
 * drawings: a classic one (corner indices, pips, court panels) and a compact one
 * (big rank and suit) that CSS shows when cards are small, as on a phone.
 *
 * This module knows nothing of piles, layout or rules.
 */

const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = {
  A: "ace", J: "jack", Q: "queen", K: "king",
  2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
};

/** Parse "10H", "TH" or "7H:2" into {rank, suit, owner}; null for a face-down card. */
export function parseCard(text) {
  if (text == null) return null;
  const [face, owner] = String(text).split(":");
  const suit = face.slice(-1).toUpperCase();
  let rank = face.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  return { rank, suit, owner: owner ? Number(owner) : null, red: suit === "H" || suit === "D" };
}

/** Words a screen reader says: "7 of hearts", "face-down card". */
export function cardName(text) {
  const card = parseCard(text);
  if (!card) return "face-down card";
  const name = `${RANK_NAMES[card.rank] || card.rank} of ${SUIT_NAMES[card.suit] || card.suit}`;
  return card.owner ? `${name}, player ${card.owner}'s` : name;
}

// Suit shapes in a 100 x 100 box, drawn once and reused by every card.
const SUIT_PATHS = {
  H: '<path d="M50 93C39 79 4 56 4 30 4 14 16 4 29 4c9 0 17 5 21 14 4-9 12-14 21-14 13 0 25 10 25 26 0 26-35 49-46 63z"/>',
  D: '<path d="M50 2C61 20 74 36 90 50 74 64 61 80 50 98 39 80 26 64 10 50 26 36 39 20 50 2z"/>',
  S: '<path d="M50 3C41 22 6 38 6 63c0 14 10 24 23 24 8 0 14-4 18-10-1 9-5 15-13 20h32c-8-5-12-11-13-20 4 6 10 10 18 10 13 0 23-10 23-24C94 38 59 22 50 3z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="60" r="21"/><circle cx="74" cy="60" r="21"/>' +
    '<path d="M42 40h16v20H42z"/><path d="M47 58c0 15-5 27-14 38h34C58 85 53 73 53 58z"/>',
};

const SPRITE_ID = "card-sprite";

/** Put the suit symbols and the back pattern into the document, once. */
export function ensureSprite(doc = document) {
  if (doc.getElementById(SPRITE_ID)) return;
  const symbols = Object.entries(SUIT_PATHS)
    .map(([suit, body]) => `<symbol id="suit-${suit}" viewBox="0 0 100 100">${body}</symbol>`)
    .join("");
  const holder = doc.createElement("div");
  holder.innerHTML =
    `<svg id="${SPRITE_ID}" xmlns="http://www.w3.org/2000/svg" width="0" height="0" ` +
    `class="sprite" aria-hidden="true"><defs>${symbols}` +
    // White lines over whatever colour the back's base has, so one pattern serves both seats.
    `<pattern id="back-lattice" width="9" height="9" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<path d="M0 0h9M0 0v9" stroke="#fff" stroke-opacity=".28" stroke-width="1.6"/>` +
    `<circle cx="4.5" cy="4.5" r="1.2" fill="#fff" fill-opacity=".35"/></pattern>` +
    `</defs></svg>`;
  doc.body.prepend(holder.firstChild);
}

function use(suit, x, y, size, flip = false) {
  const transform = flip ? ` transform="rotate(180 ${x + size / 2} ${y + size / 2})"` : "";
  return `<use href="#suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}"${transform}/>`;
}

// Pip centres for 2..10 in the 100 x 140 box; the lower half is drawn upside down.
const PIP_X = [31, 50, 69];
const PIPS = {
  2: [[1, 30], [1, 110]],
  3: [[1, 30], [1, 70], [1, 110]],
  4: [[0, 30], [2, 30], [0, 110], [2, 110]],
  5: [[0, 30], [2, 30], [1, 70], [0, 110], [2, 110]],
  6: [[0, 30], [2, 30], [0, 70], [2, 70], [0, 110], [2, 110]],
  7: [[0, 30], [2, 30], [1, 50], [0, 70], [2, 70], [0, 110], [2, 110]],
  8: [[0, 30], [2, 30], [1, 50], [0, 70], [2, 70], [1, 90], [0, 110], [2, 110]],
  9: [[0, 30], [2, 30], [0, 56.7], [2, 56.7], [1, 70], [0, 83.3], [2, 83.3], [0, 110], [2, 110]],
  10: [[0, 30], [2, 30], [1, 43.3], [0, 56.7], [2, 56.7], [0, 83.3], [2, 83.3], [1, 96.7], [0, 110], [2, 110]],
};

function rankText(rank, x, y, size, anchor = "middle") {
  // A ten is squeezed so that it takes no more room than one letter.
  const squeeze = rank === "10" ? ` textLength="${size * 0.98}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text x="${x}" y="${y}" font-size="${size}" text-anchor="${anchor}"${squeeze}>${rank}</text>`;
}

function cornerIndex(card) {
  return `<g class="idx">${rankText(card.rank, 11, 23, 20)}${use(card.suit, 4, 26, 14)}</g>`;
}

function centre(card) {
  const { rank, suit } = card;
  if (rank === "A") {
    const size = suit === "S" ? 50 : 40;
    return use(suit, 50 - size / 2, 70 - size / 2, size);
  }
  if (rank === "J" || rank === "Q" || rank === "K") {
    return (
      `<rect class="court" x="22" y="20" width="56" height="100" rx="4"/>` +
      `<rect class="court-inner" x="25.5" y="23.5" width="49" height="93" rx="2.5"/>` +
      use(suit, 40, 28, 20) +
      `<text class="court-letter" x="50" y="87" font-size="42" text-anchor="middle">${rank}</text>` +
      use(suit, 40, 92, 20, true)
    );
  }
  const size = 19;
  return PIPS[rank]
    .map(([col, y]) => use(suit, PIP_X[col] - size / 2, y - size / 2, size, y > 70))
    .join("");
}

const faceCache = new Map();

/** The SVG of a face-up card, cached by its text (owners do not change the face). */
export function faceSVG(text) {
  const card = parseCard(text);
  const key = `${card.rank}${card.suit}`;
  let svg = faceCache.get(key);
  if (!svg) {
    const full =
      `<g class="face-full">${cornerIndex(card)}` +
      `<g transform="rotate(180 50 70)">${cornerIndex(card)}</g>` +
      use(card.suit, 82, 5, 13) +
      centre(card) +
      `</g>`;
    const compact =
      `<g class="face-compact">${rankText(card.rank, 6, 34, 36, "start")}` +
      use(card.suit, 67, 7, 27) +
      use(card.suit, 21, 54, 58) +
      `</g>`;
    svg =
      `<svg class="face ${card.red ? "red" : "black"}" viewBox="0 0 100 140" aria-hidden="true" ` +
      `focusable="false">${full}${compact}</svg>`;
    faceCache.set(key, svg);
  }
  return svg;
}

/** The SVG of a card back; its colours come from CSS, so one drawing serves every seat. */
export const BACK_SVG =
  '<svg class="back-art" viewBox="0 0 100 140" aria-hidden="true" focusable="false">' +
  '<rect class="back-base" x="5" y="5" width="90" height="130" rx="5"/>' +
  '<rect x="5" y="5" width="90" height="130" rx="5" fill="url(#back-lattice)"/>' +
  '<rect class="back-line" x="9" y="9" width="82" height="122" rx="3" fill="none" stroke-width="1.2"/>' +
  '<g transform="translate(50 70)"><circle class="back-base back-line" r="16" stroke-width="2"/>' +
  '<path class="back-mark" d="M0-10 6.5 0 0 10-6.5 0z"/></g></svg>';
