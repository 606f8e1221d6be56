/**
 * Words a player understands: card names with suit symbols, and refusals as sentences.
 *
 * The engine keeps its machine codes (`tableau`, `foundation`, `space`...) and the
 * details of a refusal; this module turns a code, its data and the move the player
 * tried into a sentence ("The 2♠ can't go on the 5♥: build down in alternating
 * colours"). It knows no rule: where a sentence needs one, the reason comes from the
 * server (its error text after the colon, or `data.rule`). Pile names come from the
 * labels the table was given.
 */

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** "2S" -> "2♠", "TH" / "10H" -> "10♥", "7H:1" -> "7♥"; null for a face-down card. */
export function cardText(code) {
  if (code == null) return null;
  const face = String(code).split(":")[0];
  const suit = face.slice(-1).toUpperCase();
  let rank = face.slice(0, -1).toUpperCase();
  if (rank === "T") rank = "10";
  return `${rank}${SUIT_SYMBOLS[suit] || suit}`;
}

const CARD_CODE = /\b(10|[2-9AJQKT])([SHDC])(?::\d)?\b/g;

/** Any server words made readable: card codes become "2♠", pile ids their labels. */
export function plainWords(text, labelOf = (id) => id) {
  if (!text) return "";
  let words = String(text).replace(CARD_CODE, (match) => cardText(match));
  words = words.replace(/\b((?:p\d\.)?(?:t|f|w|lid)\d+|(?:p\d\.)?(?:stock|waste)|jewels)\b/g, (id) => {
    const label = labelOf(id);
    return label && label !== id ? `the ${lowerFirst(label)}` : id;
  });
  return upperFirst(words.replace(/^the the /i, "the "));
}

export function upperFirst(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

function lowerFirst(text) {
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : text;
}

/** The part of a server reason after its colon: the rule that refused the move. */
function ruleOf(error) {
  const data = error.data || {};
  let rule = data.rule || "";
  if (!rule) {
    const text = String(error.message || "");
    const at = text.indexOf(": ");
    rule = at >= 0 ? text.slice(at + 2) : "";
  }
  // "tableau builds down in alternating colours" -> "build down in alternating colours"
  return rule
    .replace(/^(?:the )?(?:tableau|foundations?) builds? /i, "build ")
    .replace(/^a run must /i, "a run must ");
}

/**
 * A refusal in plain words.
 *
 * `error` has the server's `code`, `data` and message; `context` says what was tried:
 * {moving: card code of the lowest moved card, onto: card code on top of the target,
 * from, to: pile labels, count}.
 */
export function refusalSentence(error, context = {}) {
  const code = error.code || "";
  const data = error.data || {};
  const moving = cardText(data.card || context.moving);
  const onto = cardText(data.top || context.onto);
  const rule = ruleOf(error);
  const withRule = (sentence) => (rule ? `${sentence}: ${rule}.` : `${sentence}.`);
  const to = context.to ? lowerFirst(context.to) : "that pile";
  switch (code) {
    case "tableau":
    case "foundation":
      if (moving && onto) return withRule(`The ${moving} can't go on the ${onto}`);
      if (moving && code === "foundation") return withRule(`The ${moving} can't start a foundation`);
      break;
    case "space":
      if (moving) return withRule(`The ${moving} can't fill an empty column`);
      break;
    case "foundation_taken": {
      const who = context.ownerName ? context.ownerName(data.owner) : "Your opponent";
      return `Too late: ${who} just played the ${moving || "card"} there.`;
    }
    case "face_down":
      return "Face-down cards can't be moved.";
    case "onto_face_down":
      return "Nothing goes on a face-down card.";
    case "empty":
      return context.from ? `The ${lowerFirst(context.from)} is empty.` : "That pile is empty.";
    case "no_such_move":
      if (context.from && context.to) return `Cards don't move from the ${lowerFirst(context.from)} to the ${to}.`;
      break;
    case "stale":
    case "stale_version":
      return "The table changed before that move arrived, so it was not made.";
    case "rate_limited":
      return "That was a little too fast. Wait a moment and try again.";
    case "busy":
      return "The server is busy. Try again in a moment.";
    default:
      break;
  }
  return plainWords(error.message || "That move is not allowed.", context.labelOf);
}
