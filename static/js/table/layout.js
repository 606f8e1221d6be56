/**
 * Where each game's piles sit on the table, and how big the cards are.
 *
 * A layout is drawn in "card units" (a card is 1 wide and 1.4 tall) and then scaled
 * so that it fills the space given: that is what makes one table serve a phone held
 * upright and a large desktop. Games may offer several arrangements (Casket has a
 * wide one and a narrow one); the one that gives the biggest cards wins.
 *
 * This module knows pile ids and how piles are drawn (fanned down, fanned right,
 * squared), never what moves are legal.
 */

export const CARD_RATIO = 1.4;
const H = CARD_RATIO;
const GAP = 0.14; // between columns, in card widths
const ROW_GAP = 0.22; // between rows
const STEP = 1 + GAP;
const MAX_CARD_WIDTH = 124;
const MIN_CARD_WIDTH = 28;

// How much a fanned pile shows of each card it covers, as a share of card height.
export const FAN = {
  down: 0.09, // face-down cards
  up: 0.25, // face-up cards, classic faces
  upCompact: 0.28, // face-up cards, compact faces (bigger corner index)
  minDown: 0.04,
  minUp: 0.17,
  minUpCompact: 0.25,
  right: 0.24, // a draw-three waste fanned sideways, share of card width
};

/** Below this width a card shows its compact face (big rank, one big suit). */
export const COMPACT_BELOW = 62;
/** Below this width there is no room between rows for a pile's caption. */
export const CAPTIONS_FROM = 64;

function pile(id, kind, x, y, extra = {}) {
  return { id, kind, x, y, scale: 1, fan: "none", ...extra };
}

function range(n) {
  return Array.from({ length: n }, (_, i) => i + 1);
}

// A few rows of fanned cards that every tableau column is given room for.
const TABLEAU_ROOM = H + 7 * FAN.up * H;

function klondike(view) {
  const drawThree = view.options && view.options.draw === 3;
  const tableauY = H + ROW_GAP;
  const piles = [
    pile("stock", "stock", 0, 0, { badge: true }),
    pile("waste", "waste", STEP, 0, drawThree ? { fan: "right", show: 3 } : {}),
    ...range(4).map((f) => pile(`f${f}`, "foundation", (f + 2) * STEP, 0)),
    ...range(7).map((t) => pile(`t${t}`, "tableau", (t - 1) * STEP, tableauY, { fan: "down" })),
  ];
  return { piles, width: 7 * STEP - GAP, height: tableauY + TABLEAU_ROOM };
}

function josephine() {
  const tableauY = H + ROW_GAP;
  const piles = [
    pile("stock", "stock", 0, 0, { badge: true }),
    pile("waste", "waste", STEP, 0, { badge: true }),
    ...range(8).map((f) => pile(`f${f}`, "foundation", (f + 1) * STEP, 0)),
    ...range(10).map((t) => pile(`t${t}`, "tableau", (t - 1) * STEP, tableauY, { fan: "down" })),
  ];
  return { piles, width: 10 * STEP - GAP, height: tableauY + TABLEAU_ROOM };
}

// Casket: the lid (five cells) above the jewels, two walls either side of the jewels,
// four base columns beneath. Walls t1, t2 | jewels | t3, t4; base t5..t8.
const WALL_ROOM = H + 4 * FAN.up * H;
const BASE_ROOM = H + 4 * FAN.up * H;

function casketBody(x0, y0) {
  const wallY = y0 + H + ROW_GAP;
  const baseY = wallY + WALL_ROOM + ROW_GAP;
  const wallBottom = baseY - ROW_GAP * 0.5;
  const col = (i) => x0 + i * STEP;
  const piles = [
    ...range(5).map((c) => pile(`lid${c}`, "cell", col(c - 1), y0)),
    pile("t1", "tableau", col(0), wallY, { fan: "down", bottom: wallBottom }),
    pile("t2", "tableau", col(1), wallY, { fan: "down", bottom: wallBottom }),
    pile("jewels", "reserve", col(2), wallY, { badge: true, caption: "Jewels" }),
    pile("t3", "tableau", col(3), wallY, { fan: "down", bottom: wallBottom }),
    pile("t4", "tableau", col(4), wallY, { fan: "down", bottom: wallBottom }),
    ...range(4).map((b) =>
      pile(`t${b + 4}`, "tableau", col(b - 0.5), baseY, { fan: "down" }),
    ),
  ];
  return { piles, width: 5 * STEP - GAP, height: baseY - y0 + BASE_ROOM };
}

function casketWide() {
  // Stock and wastes in a column on the left, foundations two by four on the right.
  const side = 0.5;
  const body = casketBody(STEP + side, 0);
  const fx = STEP + side + body.width + side + GAP;
  const row = (r) => r * (H + ROW_GAP);
  const piles = [
    pile("stock", "stock", 0, row(0), { badge: true, caption: "Stock" }),
    ...range(3).map((w) => pile(`w${w}`, "waste", 0, row(w), { badge: true, caption: "Waste" })),
    ...body.piles,
    ...range(8).map((f) =>
      pile(`f${f}`, "foundation", fx + ((f - 1) % 2) * STEP, row(Math.floor((f - 1) / 2))),
    ),
  ];
  return { piles, width: fx + 2 * STEP - GAP, height: Math.max(body.height, row(4) - ROW_GAP) };
}

function casketNarrow() {
  // Foundations across the top, then stock and wastes, then the casket itself.
  const width = 8 * STEP - GAP;
  const bodyX = (width - (5 * STEP - GAP)) / 2;
  const body = casketBody(bodyX, 2 * (H + ROW_GAP));
  const piles = [
    ...range(8).map((f) => pile(`f${f}`, "foundation", (f - 1) * STEP, 0)),
    pile("stock", "stock", bodyX, H + ROW_GAP, { badge: true, caption: "Stock" }),
    ...range(3).map((w) =>
      pile(`w${w}`, "waste", bodyX + (w + 1) * STEP, H + ROW_GAP, { badge: true, caption: "Waste" }),
    ),
    ...body.piles,
  ];
  return { piles, width, height: 2 * (H + ROW_GAP) + body.height };
}

// Double: the opponent small on top, the eight shared foundations in the middle, and
// one's own layout large at the bottom. A spectator sees player 1 at the bottom.
const OPPONENT_SCALE = 0.55;

function seatRow(prefix, x0, y0, scale, extra) {
  const step = STEP * scale;
  return [
    pile(`${prefix}stock`, "stock", x0, y0, { badge: true, scale, ...extra }),
    pile(`${prefix}waste`, "waste", x0 + step, y0, { fan: "down", show: 3, scale, ...extra }),
    ...range(7).map((t) =>
      pile(`${prefix}t${t}`, "tableau", x0 + (t + 1) * step, y0, { fan: "down", scale, ...extra }),
    ),
  ];
}

// On a phone the opponent's layout is a compact strip: each pile squared, its top card
// showing, so one's own cards can be large.
const COMPACT_SCALE = 0.34;

/**
 * Double on a phone: the opponent as a strip of squared piles at the top, the eight
 * foundations a little smaller, then one's own stock and waste above seven columns
 * that span the width, so one's own cards come out as large as in Klondike.
 */
function doubleCompact(me, them) {
  const width = 7 * STEP - GAP;
  const strip = COMPACT_SCALE;
  const stripX = (width - 9 * STEP * strip) / 2;
  const opponent = seatRow(`p${them}.`, stripX, 0, strip, { owner: them, opponent: true }).map((p) => ({
    ...p,
    fan: "none",
    show: undefined,
  }));
  const foundationScale = 0.8;
  const foundationY = strip * H + ROW_GAP;
  const foundationStep = STEP * foundationScale;
  const foundationX = (width - (8 * foundationStep - GAP * foundationScale)) / 2;
  const ownY = foundationY + foundationScale * H + ROW_GAP;
  const tableauY = ownY + H + ROW_GAP;
  const piles = [
    ...opponent,
    ...range(8).map((f) =>
      pile(`f${f}`, "foundation", foundationX + (f - 1) * foundationStep, foundationY, { scale: foundationScale }),
    ),
    pile(`p${me}.stock`, "stock", 0, ownY, { badge: true, owner: me }),
    pile(`p${me}.waste`, "waste", STEP, ownY, { fan: "right", show: 3, owner: me }),
    ...range(7).map((t) => pile(`p${me}.t${t}`, "tableau", (t - 1) * STEP, tableauY, { fan: "down", owner: me })),
  ];
  return { piles, width, height: tableauY + TABLEAU_ROOM };
}

function double(view, options = {}) {
  const me = view.player === 2 ? 2 : 1;
  const them = 3 - me;
  const width = 9 * STEP - GAP;
  if (options.compactOpponent) return doubleCompact(me, them);
  const opponentWidth = width * OPPONENT_SCALE;
  // Room for a ten-card run at the tightest fan of small cards, so the opponent's long
  // columns do not cover the foundations.
  const opponentRoom = OPPONENT_SCALE * (H + 9 * FAN.minUpCompact * H);
  const foundationY = opponentRoom + ROW_GAP * 1.5;
  const ownY = foundationY + H + ROW_GAP * 1.5;
  const foundationX = (width - (8 * STEP - GAP)) / 2;
  const piles = [
    ...seatRow(`p${them}.`, (width - opponentWidth) / 2, 0, OPPONENT_SCALE, {
      owner: them,
      bottom: opponentRoom,
      opponent: true,
    }),
    ...range(8).map((f) => pile(`f${f}`, "foundation", foundationX + (f - 1) * STEP, foundationY)),
    ...seatRow(`p${me}.`, 0, ownY, 1, { owner: me }),
  ];
  return { piles, width, height: ownY + TABLEAU_ROOM };
}

function casketTall() {
  // For a phone held upright: foundations in two rows of four, then stock and
  // wastes, then the casket; narrower than the rest, so the cards come out bigger.
  const width = 5 * STEP - GAP;
  const rowX = (width - (4 * STEP - GAP)) / 2;
  const row = (r) => r * (H + ROW_GAP);
  const body = casketBody(0, row(3));
  const piles = [
    ...range(8).map((f) =>
      pile(`f${f}`, "foundation", rowX + ((f - 1) % 4) * STEP, row(Math.floor((f - 1) / 4))),
    ),
    pile("stock", "stock", rowX, row(2), { badge: true, caption: "Stock" }),
    ...range(3).map((w) =>
      pile(`w${w}`, "waste", rowX + w * STEP, row(2), { badge: true, caption: "Waste" }),
    ),
    ...body.piles,
  ];
  return { piles, width, height: row(3) + body.height };
}

const ARRANGEMENTS = {
  klondike: [klondike],
  josephine: [josephine],
  casket: [casketWide, casketNarrow, casketTall],
  double: [double],
};

// Card size settings: the largest card width allowed, and the margin around the table.
const CARD_SIZES = {
  small: { max: 84, margin: 0.1 },
  fit: { max: MAX_CARD_WIDTH, margin: 0.1 },
  large: { max: 180, margin: 0.04 },
};

/** Left-handed: the same table seen in a mirror (stock on the right). */
function mirror(plan) {
  for (const p of plan.piles) {
    p.x = plan.width - p.x - p.scale;
    if (p.fan === "right") p.fan = "left";
  }
}

/**
 * Teach the table another arrangement, named like a game (the race replay shows both
 * Double layouts side by side this way). `arrange(view)` returns {piles, width, height}
 * in card units, as the arrangements above do.
 */
export function addArrangement(name, arrange) {
  ARRANGEMENTS[name] = [arrange];
}

/**
 * A pile's name for people. The game's description names its piles (the payload's
 * `describe`); without one, the id is spelt out ("t3" -> "Tableau 3"). Seats in a
 * race are named from the viewer's side.
 */
export function pileLabel(id, view, description = null) {
  const seatMatch = /^p(\d)\.(.+)$/.exec(id);
  const described = description && description.piles && (description.piles[id] || (seatMatch && description.piles[seatMatch[2]]));
  if (described && described.label) {
    let label = described.label;
    if (seatMatch && !description.piles[id]) {
      const seat = Number(seatMatch[1]);
      const who = view.player == null ? `Player ${seat}` : seat === view.player ? "Your" : "Opponent's";
      label = `${who} ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
    }
    return label;
  }
  return spelledOut(id, view);
}

function spelledOut(id, view) {
  const match = /^(?:p(\d)\.)?([a-z]+)(\d*)$/.exec(id);
  if (!match) return id;
  const [, seat, base, number] = match;
  const names = {
    stock: "Stock",
    waste: "Waste",
    f: "Foundation",
    t: "Tableau",
    w: "Waste",
    lid: "Lid cell",
    jewels: "Jewels",
  };
  let label = `${names[base] || base}${number ? ` ${number}` : ""}`;
  if (seat) {
    const who = view.player == null ? `Player ${seat}` : Number(seat) === view.player ? "Your" : "Opponent's";
    label = `${who} ${label.charAt(0).toLowerCase()}${label.slice(1)}`;
  }
  return label;
}

/**
 * The layout of `view`'s game in a box of `box.width` x `box.height` pixels.
 *
 * Returns {cardWidth, cardHeight, width, height, piles}: each pile has its id, kind
 * ("stock", "waste", "foundation", "tableau", "cell", "reserve"), pixel x/y, the size
 * of its cards (w, h), how it fans ("down", "right", "none"), the lowest y its fan may
 * reach (bottom), a label for people, and optionally a caption drawn under it.
 */
export function computeLayout(view, box, options = {}) {
  const arrangements = ARRANGEMENTS[view.game];
  if (!arrangements) throw new Error(`no layout for game ${view.game}`);
  const size = CARD_SIZES[options.cardSize] || CARD_SIZES.fit;
  const margin = size.margin; // in card widths, around the whole table
  let best = null;
  for (const arrange of arrangements) {
    const plan = arrange(view, options);
    if (options.leftHanded) mirror(plan);
    const byWidth = box.width / (plan.width + 2 * margin);
    const byHeight = box.height / (plan.height + 2 * margin);
    const cardWidth = Math.max(MIN_CARD_WIDTH, Math.min(size.max, byWidth, byHeight));
    if (!best || cardWidth > best.cardWidth + 0.5) best = { plan, cardWidth };
  }
  const unit = Math.floor(best.cardWidth * 2) / 2;
  const { plan } = best;
  const contentWidth = (plan.width + 2 * margin) * unit;
  // Centre the table horizontally in the space given.
  const offsetX = Math.max(0, (box.width - contentWidth) / 2) + margin * unit;
  const offsetY = margin * unit;
  const height = Math.max(box.height, (plan.height + 2 * margin) * unit);
  const piles = plan.piles.map((p, order) => {
    const w = Math.round(unit * p.scale);
    const h = Math.round(unit * p.scale * H);
    return {
      ...p,
      order,
      label: pileLabel(p.id, view, options.description),
      touch: !!options.touch,
      x: Math.round(offsetX + p.x * unit),
      y: Math.round(offsetY + p.y * unit),
      w,
      h,
      bottom: p.bottom != null ? Math.round(offsetY + p.bottom * unit) : height - margin * unit,
      compact: w < COMPACT_BELOW,
    };
  });
  return {
    cardWidth: unit,
    cardHeight: Math.round(unit * H),
    width: Math.max(box.width, contentWidth),
    height,
    piles,
    byId: new Map(piles.map((p) => [p.id, p])),
  };
}
