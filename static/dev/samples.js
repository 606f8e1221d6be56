// Hand-written views for the preview page (development only).
const RANKS = ["A","2","3","4","5","6","7","8","9","10","J","Q","K"];
const SUITS = ["C","D","H","S"];
function deck(n = 1) { const d = []; for (let k = 0; k < n; k++) for (const s of SUITS) for (const r of RANKS) d.push(r + s); return d; }
function shuffle(a, seed) { let x = seed; const r = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648; for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; }
export const samples = {
  klondike() {
    const d = shuffle(deck(), 7);
    const piles = { stock: 14, waste: ["5H", "KD", "9C"], f1: ["AS", "2S", "3S"], f2: ["AH"], f3: [], f4: [] };
    const cols = [
      ["KS", "QH", "JC", "10D", "9S", "8H"],
      [null, "7C"],
      [null, null, "QD", "JS"],
      [null, null, null, "4C"],
      [null, null, null, null, "10H", "9C", "8D", "7S", "6H", "5C", "4H"],
      [null, null, null, null, null, "2D"],
      [],
    ];
    cols.forEach((c, i) => (piles[`t${i + 1}`] = c));
    return { game: "klondike", options: { draw: 3, passes: null, scoring: "standard" }, player: null, piles, score: 45, passes: 0, passes_left: null, is_won: false, is_over: false, can_auto_finish: false,
      moves: [{ from: "waste", to: "t2", count: 1 }, { from: "t4", to: "t1", count: 1 }, { from: "stock", to: "waste", count: 1 }, { from: "t1", to: "t7", count: 6 }] };
  },
  josephine() {
    const d = shuffle(deck(2), 3);
    const piles = { stock: 40, waste: d.slice(0, 6), };
    for (let f = 1; f <= 8; f++) piles[`f${f}`] = f <= 3 ? ["A" + SUITS[f % 4], "2" + SUITS[f % 4]] : [];
    for (let t = 1; t <= 10; t++) piles[`t${t}`] = d.slice(6 + t * 4, 10 + t * 4 + (t === 3 ? 8 : 0));
    piles.t7 = [];
    return { game: "josephine", options: {}, player: null, piles, score: null, passes: 0, passes_left: 1, is_won: false, is_over: false, can_auto_finish: false, moves: [] };
  },
  casket() {
    const d = shuffle(deck(2), 5);
    const piles = { stock: 55, w1: [d[0], d[1]], w2: [d[2]], w3: [], jewels: [null, null, null, null, null, null, null, null, null, null, d[3]] };
    for (let l = 1; l <= 5; l++) piles[`lid${l}`] = [d[3 + l]];
    for (let t = 1; t <= 8; t++) piles[`t${t}`] = [d[10 + t]].concat(t === 6 ? ["8H", "7H", "6H"] : []);
    for (let f = 1; f <= 8; f++) piles[`f${f}`] = f === 1 ? ["AD", "2D"] : [];
    return { game: "casket", options: { hard: false }, player: null, piles, stock_top: "QC", score: null, is_won: false, is_over: false, can_auto_finish: false, moves: [] };
  },
  double() {
    const piles = {};
    for (const p of [1, 2]) {
      piles[`p${p}.stock`] = 20; piles[`p${p}.waste`] = ["3C", "9D", "QS"];
      for (let t = 1; t <= 7; t++) piles[`p${p}.t${t}`] = Array(t - 1).fill(null).concat([RANKS[(t * 3 + p) % 13] + SUITS[(t + p) % 4]]);
    }
    for (let f = 1; f <= 8; f++) piles[`f${f}`] = f < 4 ? ["AH:1", "2H:2", "3H:1"].slice(0, 4 - f) : [];
    return { game: "double", options: {}, player: 1, piles, score: null, is_won: false, is_over: false, can_auto_finish: false, contributions: { 1: 3, 2: 1 }, result: null, moves: [] };
  },
};
