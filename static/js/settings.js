/**
 * The player's settings, kept per browser in localStorage, and the dialog that
 * changes them: left-handed table, animation speed, sound, card backs, four-colour
 * suits, card size and auto-play of safe cards.
 *
 *   const settings = loadSettings();
 *   onSettingsChange((settings) => ...);   // called now and after every change
 *   openSettings();                        // the dialog
 *
 * Nothing here knows about games; pages decide what each setting does to them.
 */

const KEY = "patience-settings";

export const DEFAULTS = Object.freeze({
  leftHanded: false,
  speed: "normal", // "normal" | "fast" | "slow" | "off"
  sound: false,
  back: "blue", // "blue" | "red" | "green"
  fourColour: false,
  cardSize: "fit", // "small" | "fit" | "large"
  autoplay: false,
});

export const SPEEDS = { normal: 1, fast: 0.55, slow: 1.7, off: 0 };

const CHOICES = [
  { name: "leftHanded", label: "Left-handed table (stock on the right)", type: "check" },
  { name: "autoplay", label: "Play safe cards to the foundations by themselves", type: "check" },
  { name: "fourColour", label: "Four-colour suits (♦ blue, ♣ green)", type: "check" },
  { name: "sound", label: "Sounds", type: "check" },
  {
    name: "speed",
    label: "Card movement",
    type: "radio",
    options: [
      ["fast", "Fast"],
      ["normal", "Normal"],
      ["slow", "Slow"],
      ["off", "None"],
    ],
  },
  {
    name: "cardSize",
    label: "Card size",
    type: "radio",
    options: [
      ["small", "Small"],
      ["fit", "Fit the screen"],
      ["large", "Large"],
    ],
  },
  {
    name: "back",
    label: "Card backs",
    type: "radio",
    options: [
      ["blue", "Blue"],
      ["red", "Red"],
      ["green", "Green"],
    ],
  },
];

const listeners = new Set();

export function loadSettings() {
  let stored = {};
  try {
    stored = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    stored = {};
  }
  const settings = { ...DEFAULTS };
  for (const key of Object.keys(DEFAULTS)) {
    if (typeof stored[key] === typeof DEFAULTS[key]) settings[key] = stored[key];
  }
  return settings;
}

export function saveSettings(changes) {
  const settings = { ...loadSettings(), ...changes };
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    /* private mode: the settings last for this page only */
  }
  applyToDocument(settings);
  for (const listener of listeners) listener(settings);
  return settings;
}

/** Classes on <html> that the style sheets read: card backs and suit colours. */
function applyToDocument(settings) {
  const root = document.documentElement;
  root.classList.toggle("four-colour", settings.fourColour);
  for (const back of ["blue", "red", "green"]) root.classList.toggle(`backs-${back}`, settings.back === back);
}

/** Call `listener(settings)` now and after every change; returns the unbind function. */
export function onSettingsChange(listener) {
  listeners.add(listener);
  const settings = loadSettings();
  applyToDocument(settings);
  listener(settings);
  return () => listeners.delete(listener);
}

let dialog = null;

function buildDialog() {
  const el = document.createElement("dialog");
  el.className = "settings-dialog";
  el.id = "settings";
  el.setAttribute("aria-labelledby", "settings-title");
  const form = document.createElement("form");
  form.method = "dialog";
  const title = document.createElement("h2");
  title.id = "settings-title";
  title.textContent = "Settings";
  form.append(title);
  for (const choice of CHOICES) {
    if (choice.type === "check") {
      const label = document.createElement("label");
      label.className = "setting-check";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.name = choice.name;
      label.append(input, ` ${choice.label}`);
      form.append(label);
    } else {
      const fieldset = document.createElement("fieldset");
      const legend = document.createElement("legend");
      legend.textContent = choice.label;
      const group = document.createElement("div");
      group.className = "segmented";
      for (const [value, text] of choice.options) {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "radio";
        input.name = choice.name;
        input.value = value;
        const span = document.createElement("span");
        span.textContent = text;
        label.append(input, span);
        group.append(label);
      }
      fieldset.append(legend, group);
      form.append(fieldset);
    }
  }
  const note = document.createElement("p");
  note.className = "help";
  note.textContent = "Settings are kept in this browser.";
  const close = document.createElement("button");
  close.className = "btn btn-primary";
  close.value = "close";
  close.textContent = "Done";
  const actions = document.createElement("div");
  actions.className = "actions";
  actions.append(close);
  form.append(note, actions);
  el.append(form);
  form.addEventListener("change", (event) => {
    const input = event.target;
    if (!input.name) return;
    saveSettings({ [input.name]: input.type === "checkbox" ? input.checked : input.value });
  });
  document.body.append(el);
  return el;
}

export function openSettings() {
  if (!dialog) dialog = buildDialog();
  const settings = loadSettings();
  for (const input of dialog.querySelectorAll("input")) {
    if (input.type === "checkbox") input.checked = !!settings[input.name];
    else input.checked = settings[input.name] === input.value;
  }
  dialog.showModal();
}
