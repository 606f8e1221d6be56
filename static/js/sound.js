/**
 * Short, optional sounds (off unless the player turns them on in the settings):
 * a card landing, a refusal, a win. Made with Web Audio, so there is nothing to load.
 */

import { loadSettings, onSettingsChange } from "./settings.js";

let enabled = loadSettings().sound;
let context = null;
onSettingsChange((settings) => {
  enabled = settings.sound;
});

const TONES = {
  place: [[660, 0.04]],
  refuse: [[220, 0.09]],
  win: [[523, 0.12], [659, 0.12], [784, 0.2]],
};

export function play(name) {
  if (!enabled || !TONES[name]) return;
  try {
    context = context || new AudioContext();
    let at = context.currentTime;
    for (const [frequency, length] of TONES[name]) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + length);
      at += length;
    }
  } catch {
    /* no audio: silence is fine */
  }
}
