/**
 * The "How to play" pages: draws an example deal beside the guide with the same table
 * code as the play page. Nothing is sent anywhere; a card put down slides home.
 */

import { createTable } from "./table/table.js";

const holder = document.getElementById("example-table");
const view = JSON.parse(document.getElementById("example-view").textContent);
// How tall the figure is for its width: Casket stands upright, the others lie wide.
const SHAPE = { casket: 1.5, double: 1.05 };
const table = createTable(holder, {
  measure: (root) => ({
    width: root.clientWidth,
    height: Math.max(220, Math.min(window.innerHeight - 140, root.clientWidth * (SHAPE[view.game] || 0.85))),
  }),
  onMove: () => Promise.reject(new Error("This is only an example deal.")),
  onRefused: () => {},
  // The figure is hidden from screen readers (the guide's words say it all), so none of
  // its piles may take the focus either.
  focusable: false,
});
table.set(view);
