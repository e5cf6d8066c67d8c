// The box's cues on the phone: the same (frequency, seconds) steps the box's buzzer plays, from
// GET /api/cues, synthesised with Web Audio (no sound files): a ding at every press, suspense ticks
// that speed up with the launcher's suspense, a burst when cards fly, a double beep at a reload.
// Each cue played is also written to `window.__cues` (what the tests and a curious player read).
// The box's phrases too ("Zoé, appuie 2 fois"), said with the browser's speech synthesis in the
// phone's own language: a table without a speaker on the box still hears them.

const cues = [];
window.__cues = cues;
const PHONE_SOUND = "uno-phone-sound";
let audio = null;
let steps = null;
const stateListeners = [];  // {ding: [[hz, s], ...], ..., suspense: [run at level 0, 0.1, ... 1]}

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
    audio.addEventListener("statechange", () => stateListeners.forEach((fn) => fn()));
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** The cue steps of the box, fetched once. */
export async function loadCues() {
  try {
    const r = await fetch("/api/cues");
    if (r.ok) steps = await r.json();
  } catch (e) {
    steps = null;  // no cues from the box: the page stays silent, nothing else changes
  }
}

// A buzzer-like square wave through each step; 0 Hz is a rest.
function playSteps(ctx, run) {
  let at = ctx.currentTime + 0.01;
  const gain = ctx.createGain();
  gain.gain.value = 0.12;
  gain.connect(ctx.destination);
  run.forEach(([hz, seconds]) => {
    if (hz > 0) {
      const osc = ctx.createOscillator();
      osc.type = "square";
      osc.frequency.setValueAtTime(hz, at);
      osc.connect(gain);
      osc.start(at);
      osc.stop(at + seconds);
    }
    at += seconds;
  });
}

function runOf(name, level) {
  if (!steps) return null;
  if (name !== "suspense") return steps[name] || null;
  const runs = steps.suspense || [];
  return runs[Math.max(0, Math.min(runs.length - 1, Math.round((level || 0) * 10)))] || null;
}

export const sound = {
  enabled: localStorage.getItem(PHONE_SOUND) === "1",
  /** Play a cue (ding, suspense, burst, reload) if sound is on. */
  play(name, level) {
    if (!this.enabled) return;
    cues.push(name);
    const ctx = context();
    const run = runOf(name, level);
    if (ctx && run) playSteps(ctx, run);
  },
  set(on) {
    this.enabled = on;
    if (on) context();  // a tap: the browser allows sound from now on
  },
  /** This phone's own choice (off unless ticked), remembered across visits. */
  setPhone(on) {
    localStorage.setItem(PHONE_SOUND, on ? "1" : "0");
    this.set(on);
  },
  restorePhone() { this.set(localStorage.getItem(PHONE_SOUND) === "1"); },
  /** Whether sound is on and the browser lets it play (it refuses until the page is tapped). */
  audible() { return this.enabled && Boolean(audio) && audio.state === "running"; },
  /** Call `fn()` when the browser starts or stops the page's sound. */
  onState(fn) { stateListeners.push(fn); },
  /** Whether this browser can speak the box's phrases. */
  canSpeak() { return Boolean(window.speechSynthesis && window.SpeechSynthesisUtterance); },
};

// The box's phrases (the state's `spoken` part: the last few, numbered, each in every language).
// Only those newer than the last this page saw are said: none at the first look (nothing old is
// read out when a phone joins), at most the last few after a moment away.
const MOST_SAID_AT_ONCE = 3;
let heardUpTo = null;

/** Say the phrases of `spoken` this page has not heard yet, in `lang`, if sound is on. */
export function speakNew(spoken, lang) {
  if (!spoken || typeof spoken.last !== "number") return;
  if (heardUpTo === null || spoken.last < heardUpTo) {  // a first look, or a restarted box
    heardUpTo = spoken.last;
    return;
  }
  const fresh = (spoken.lines || []).filter((line) => line.n > heardUpTo).slice(-MOST_SAID_AT_ONCE);
  heardUpTo = spoken.last;
  if (!sound.enabled || !sound.canSpeak()) return;
  fresh.forEach((line) => {
    const utterance = new SpeechSynthesisUtterance(line.text[lang] || Object.values(line.text)[0]);
    utterance.lang = lang;
    window.speechSynthesis.speak(utterance);
  });
}

/** Sounds for what happened at the table (store.happened) at the launcher's suspense level. */
export function soundFor(happened, suspense) {
  if (!happened) return;
  if (happened.pressed) sound.play("ding");
  if (happened.fired > 0) sound.play("burst");
  else if (happened.pressed) sound.play("suspense", suspense || 0);
  if (happened.reloaded) sound.play("reload");
}
