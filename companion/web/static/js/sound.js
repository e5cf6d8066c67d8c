// The box's cues on the phone, synthesised with Web Audio (no sound files): a ding at every
// press, suspense ticks that speed up with the launcher's suspense, a burst when cards fly, a
// rising sweep at a reload. Each cue played is also written to `window.__cues` (what the tests
// and a curious player can read).

const cues = [];
window.__cues = cues;
let audio = null;

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function tone(ctx, freq, start, length, type, volume) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type || "sine";
  osc.frequency.setValueAtTime(freq, start);
  gain.gain.setValueAtTime(volume ?? 0.25, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
  return osc;
}

function noise(ctx, start, length) {
  const buffer = ctx.createBuffer(1, Math.floor(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const source = ctx.createBufferSource();
  const gain = ctx.createGain();
  gain.gain.value = 0.35;
  source.buffer = buffer;
  source.connect(gain).connect(ctx.destination);
  source.start(start);
}

const SOUNDS = {
  ding(ctx, now) { tone(ctx, 1318, now, 0.35, "triangle"); tone(ctx, 1976, now, 0.25, "sine", 0.1); },
  // suspense in 0..1: more ticks, closer together, as the launcher gets ready to fire
  suspense(ctx, now, suspense) {
    const ticks = 4 + Math.round(8 * suspense);
    let at = now + 0.35;
    let gap = 0.22 - 0.12 * suspense;
    for (let i = 0; i < ticks; i++) {
      tone(ctx, 660 + i * 20, at, 0.05, "square", 0.08);
      at += gap;
      gap = Math.max(0.04, gap * 0.85);
    }
  },
  burst(ctx, now, count) {
    noise(ctx, now, 0.5);
    for (let i = 0; i < Math.min(count, 8); i++) tone(ctx, 220 + 60 * i, now + i * 0.04, 0.12, "sawtooth", 0.1);
  },
  reload(ctx, now) {
    const osc = tone(ctx, 300, now, 0.5, "sine", 0.2);
    osc.frequency.exponentialRampToValueAtTime(900, now + 0.45);
  },
};

export const sound = {
  enabled: false,
  /** Play a cue (name in SOUNDS) if sound is on; remember it either way when on. */
  play(name, value) {
    if (!this.enabled) return;
    cues.push(name);
    const ctx = context();
    if (ctx) SOUNDS[name](ctx, ctx.currentTime, value ?? 0);
  },
  set(on) {
    this.enabled = on;
    if (on) context();  // a tap: the browser allows sound from now on
  },
};

/** Sounds for what happened at the table (store.happened) and the suspense level. */
export function soundFor(happened, suspense) {
  if (!happened) return;
  if (happened.pressed) sound.play("ding");
  if (happened.fired > 0) sound.play("burst", happened.fired);
  else if (happened.pressed) sound.play("suspense", suspense || 0);
  if (happened.reloaded) sound.play("reload");
}
