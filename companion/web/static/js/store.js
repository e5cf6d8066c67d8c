// The page's one link to the box: session, texts, the state stream and actions.
// Screens read `store` and register with `onChange`; nothing else talks to the server.

import { toast, withdrawUndo } from "./dom.js";
import { formatMessage } from "./message.js";
import { followRename } from "./components/me.js";

export const store = {
  session: null, texts: {}, lang: "fr", state: null, revision: -1,
  cards: null,     // the box's card table and house rules (GET /api/cards), fetched once
  // What happened at the table since the previous state, for banners and sounds:
  // {pressed, fired, to (who received the cards), reloaded, revision, at (performance.now())};
  // null when nothing did.
  happened: null,
  online: false,   // the live stream is open
  connection: "offline",  // "live" (the stream), "paused" (reading the state now and then)
};

const listeners = [];
/** Call `fn()` after every new state or language. */
export function onChange(fn) { listeners.push(fn); }
const textListeners = [];
/** Call `fn()` after the texts changed (the DOM's data-i18n are already translated). */
export function onTexts(fn) { textListeners.push(fn); }
const connectionListeners = [];
/** Call `fn(online)` when the live stream opens or drops. */
export function onConnection(fn) { connectionListeners.push(fn); }

// ---------------------------------------------------------------- texts
// The box's texts are ICU-style messages (plural, select, French elision): message.js formats
// them with the browser's Intl.PluralRules, as the box does with Babel's.

export function t(key, params) {
  const text = store.texts[key];
  if (text === undefined) return key;
  try {
    return formatMessage(text, store.lang, params);
  } catch (e) {
    return text;  // a missing argument shows the message as written, never breaks the page
  }
}

/** A text about `count` things. */
export function tn(key, count, params) {
  return t(key, Object.assign({ count }, params));
}

/** `t(prefix + value)` if that text exists, else the value itself. */
export function label(prefix, value) {
  const key = prefix + value;
  return key in store.texts ? store.texts[key] : value;
}

export function translate(root) {
  root.querySelectorAll("[data-i18n]").forEach((node) => { node.textContent = t(node.dataset.i18n); });
  root.querySelectorAll("[data-i18n-label]").forEach((node) => {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  });
  root.querySelectorAll("[data-i18n-placeholder]").forEach((node) => {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  });
}

// ---------------------------------------------------------------- this phone's language
// A phone's language is its own (kept in this browser): choosing it never sends anything to the
// box, so it can never touch the table. A phone that never chose follows its own browser's
// language (navigator.languages, what it sends as Accept-Language) when the box has it, else the
// box's language, and follows the box's language once someone changes that.
const PHONE_LANGUAGE = "uno.language";

/** The language this phone chose, or null when it follows the box. */
export function phoneLanguage() {
  try { return localStorage.getItem(PHONE_LANGUAGE); } catch (e) { return null; }
}

/** Choose this phone's language (remembered by this browser only) and show the page in it. */
export async function choosePhoneLanguage(lang) {
  try { localStorage.setItem(PHONE_LANGUAGE, lang); } catch (e) { /* private mode: this visit */ }
  chosenHere = lang;
  await loadTexts(lang);
  notify();
}
let chosenHere = null;

let boxLanguageSeen = null;  // the box's language when this page first saw it
let boxChosen = false;  // someone changed the box's language since: the phones that chose none follow

/** The language to show: this phone's choice; else the box's once someone changes it while
 * this page is open; else this phone's browser's, if the box has it; else the box's. */
export function wantedLanguage(boxLanguage) {
  const own = chosenHere || phoneLanguage();
  if (own) return own;
  if (boxLanguageSeen === null) boxLanguageSeen = boxLanguage || null;
  else if (boxLanguage && boxLanguage !== boxLanguageSeen) {
    boxLanguageSeen = boxLanguage;
    boxChosen = true;
  }
  return (boxChosen ? boxLanguage : browserLanguage()) || boxLanguage || "fr";
}

/** The first of the browser's languages the box has texts in ("en-GB" is "en"), or null. */
function browserLanguage() {
  const offered = (store.session && store.session.languages) || ["fr", "en"];
  const tags = (navigator.languages && navigator.languages.length) ? navigator.languages
    : [navigator.language];
  for (const tag of tags) {
    const base = String(tag || "").toLowerCase().split("-")[0];
    if (offered.includes(base)) return base;
  }
  return null;
}

export async function loadTexts(lang) {
  const r = await fetch("/api/i18n/" + lang);
  if (!r.ok) return;
  store.texts = await r.json();
  store.lang = lang;
  document.documentElement.lang = lang;
  translate(document);
  document.title = t("app_title");
  textListeners.forEach((fn) => fn());
}

// ---------------------------------------------------------------- state selectors
export const table = () => (store.state && store.state.table) || {};
export const score = () => (store.state && store.state.score) || {};
export const settings = () => (store.state && store.state.settings) || {};
export const device = () => (store.state && store.state.device) || {};
export const evening = () => (store.state && store.state.evening) || {};
/** The camera over the discard pile (absent, or `configured: false`, when the box has none). */
export const camera = () => (store.state && store.state.camera) || {};
/** The round's count: the hands left at a round's end, one draft for every phone. */
export const count = () => (store.state && store.state.count) || {};
/** The score game's standings; `finished` once someone passed the target. */
export const standings = () => score().standings || {};
/** Names of the players still in the round, in seat order. */
export const players = () => (table().players || []).filter((p) => !p.eliminated).map((p) => p.name);
export const hasAction = (name) => Boolean(store.session && store.session.actions
  && name in store.session.actions);

// ---------------------------------------------------------------- server
export async function refreshSession() {
  const r = await fetch("/api/session", { headers: { "Accept-Language": store.lang } });
  store.session = await r.json();
  if (store.state) notify();
}

/** fetch, with a network failure turned into the page's own "the box does not answer". */
export async function request(path, options) {
  try {
    return await fetch(path, options);
  } catch (e) {
    const err = new Error(t("error_network"));
    err.status = 0; err.key = "web.error_network";
    throw err;
  }
}

/**
 * A new Idempotency-Key: one per action the user takes, the same for its retries, so the box
 * answers a retry instead of doing it twice (two rounds stored for one tap on weak Wi-Fi).
 */
export function newKey() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID();  // secure pages only
  // The page over plain http on the table's Wi-Fi has no randomUUID: 128 random bits in hex.
  const bits = new Uint8Array(16);
  crypto.getRandomValues(bits);
  return Array.from(bits, (b) => b.toString(16).padStart(2, "0")).join("");
}

// One retry after the box did not answer (the request, or only its answer, was lost).
const RETRY_AFTER_MS = 1000;
const IN_PROGRESS_WAITS = 30;  // a retry finding its first try still running asks again, a while
const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * POST `body` as JSON; the answer's JSON, or throws an Error with `status` and `key`. `key` is
 * the action's Idempotency-Key (a new one when absent): a lost answer and a restarted box's new
 * session are retried once each with it.
 */
export async function post(path, body, key, retried) {
  key = key || newKey();
  let r;
  try {
    r = await request(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": store.session.csrf,
        "Accept-Language": store.lang, "Idempotency-Key": key },
      body: JSON.stringify(body),
    });
  } catch (err) {
    if (retried && retried.network) throw err;
    await pause(RETRY_AFTER_MS);
    return post(path, body, key, Object.assign({}, retried, { network: true }));
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (r.ok) return data;
  const error = (data && data.error) || { key: "", message: r.statusText };
  if (error.key === "input.idempotency_in_progress" && retried && retried.network
      && (retried.waits || 0) < IN_PROGRESS_WAITS) {
    // The first try reached the box and is still running (a long import): ask again.
    await pause(RETRY_AFTER_MS);
    return post(path, body, key, Object.assign({}, retried, { waits: (retried.waits || 0) + 1 }));
  }
  if (error.key === "web.error_csrf" && !(retried && retried.csrf)) {
    await refreshSession();  // the box restarted: new session
    return post(path, body, key, Object.assign({}, retried, { csrf: true }));
  }
  const err = new Error(error.message);
  err.status = r.status; err.key = error.key;
  throw err;
}

// Drop the fields an action does not take (the box refuses unknown fields).
export function only(name, payload) {
  const allowed = store.session && store.session.actions && store.session.actions[name];
  if (!allowed) return payload;
  const out = {};
  Object.keys(payload).forEach((k) => {
    if (allowed.includes(k) && payload[k] !== undefined) out[k] = payload[k];
  });
  return out;
}

// The actions that name the player they are for (see act()).
const TURN_ACTIONS = new Set(["table.press", "device.hit", "table.play", "table.call_uno",
  "table.contre_uno", "table.suggestion"]);

// A tap of the same button (the same card, the same call) while the last one is on its way, or
// this soon after it (the OS's double-click time), is the same gesture: it is sent as made on
// what the first was made on, whatever the box answered meanwhile, and the box answers it
// "already done". Any other tap waits for the phone's previous edit and is made on the table
// that one left.
const DOUBLE_TAP_MS = 500;
// The actions for whoever a press or a card is for now (the box checks it is still them).
const FOR_THE_PRESSER = new Set(["table.press", "device.hit", "table.play"]);
let lastTap = null;

function turnGesture(name, payload) {
  const now = performance.now();
  const what = name + JSON.stringify(payload || {});
  const twin = lastTap && lastTap.what === what
    && (lastTap.pending || now - lastTap.at < DOUBLE_TAP_MS) ? lastTap : null;
  const tap = { what, at: now, pending: true, gesture: twin ? twin.gesture : { name } };
  lastTap = tap;
  return tap;
}

/** Whom a press or a card is for now: whoever owes presses first, else the active player. */
export function presser() {
  const tb = table();
  return ((tb.owed || [])[0] || {}).player || tb.active || undefined;
}

let askPin = null;
let edits = Promise.resolve(true);  // this phone's last edit, answered or not
/** The PIN dialog: `ask(retry)` shows it and calls `retry()` once the PIN is accepted. */
export function setPinPrompt(ask) { askPin = ask; }

/**
 * Send one action and show its answer. Table edits carry the revision they were based on
 * (`options.revision !== false`): if another phone changed the table first the box answers 409,
 * the page reloads and nothing is overwritten. `options.refused(err)` runs when the box refused.
 * `options.again()`: for a tap whose meaning does not depend on what changed (the next round),
 * called after a 409 once the table is read again; it gives the payload to send once more, or
 * null when the tap no longer applies (another phone did it). Resolves to true when accepted.
 */
export async function act(name, payload, options) {
  if (options && options.revision === false) return send(name, payload, options, newKey());
  // A press, a card or a call names the player it is for and the revision it was made on.
  if (TURN_ACTIONS.has(name)) options = Object.assign({}, options, { tap: turnGesture(name, payload) });
  // An edit waits for this phone's previous one to be answered: it is then based on the state
  // that one left, and two quick taps are never refused as stale for the phone's own change.
  const turn = edits.then(() => send(name, payload, options, newKey()));
  edits = turn.catch(() => false);
  const tap = options && options.tap;
  if (tap) turn.finally(() => { tap.pending = false; });
  return turn;
}

// One action with its Idempotency-Key: sent again after the PIN with the same key (a refusal
// for want of the PIN is not remembered by the box, so the retry runs).
async function send(name, payload, options, key) {
  withdrawUndo();
  const gesture = options && options.tap && options.tap.gesture;
  if (gesture && gesture.seen === undefined) {  // the gesture's first tap: made on the table now
    gesture.seen = store.revision;
    if (FOR_THE_PRESSER.has(name)) gesture.player = presser();
  }
  if (gesture && gesture.player) payload = Object.assign({}, payload, { player: gesture.player });
  const body = { payload: only(name, payload || {}) };
  if (!options || options.revision !== false) body.revision = gesture ? gesture.seen : store.revision;
  try {
    const answer = await post("/api/actions/" + name, body, key);
    if (answer && answer.applied && typeof answer.revision !== "number") {
      // Done, though the box was too busy to send the table with it: read it now, so this
      // phone's next edit is based on it (not refused as stale) even before the stream brings it.
      toast(answer.message);
      await reloadState();
    } else render(answer);
    return true;
  } catch (err) {
    if (err.status === 401 && askPin) {
      askPin(() => send(name, payload, options, key));
    } else if (err.status === 409 && options && options.again) {
      await reloadState();
      const payloadNow = options.again();
      if (!payloadNow) return false;
      return send(name, payloadNow, Object.assign({}, options, { again: null }), newKey());
    } else {
      toast(err.message || t("error_network"));
      if (options && options.refused) options.refused(err);
      if (err.status === 409) await reloadState();
    }
    return false;
  }
}

export async function reloadState() {
  try {
    const r = await request("/api/state");
    if (r.ok) render(await r.json());
  } catch (err) {
    toast(err.message);
  }
}

// What the launcher did between two table states. Cards fired: the engine's count for the last
// event, or what left the magazine (several changes may arrive as one state). Who received them:
// the player whose hand grew the most, else whom the launcher faced when the button was pressed.
export function happenedBetween(prev, now) {
  if (!prev || prev.round !== now.round || !(now.events > prev.events)) return null;
  const gone = Math.max(0, (prev.magazine ?? 0) - (now.magazine ?? 0));
  const fired = now.fired > 0 ? now.fired : gone;
  const pressed = fired > 0 || (now.presses_since_fire ?? 0) > (prev.presses_since_fire ?? 0);
  const reloaded = (now.magazine ?? 0) > (prev.magazine ?? 0);
  if (!pressed && !reloaded) return null;
  let to = prev.facing || null;
  let grew = 0;
  (now.players || []).forEach((p) => {
    const before = (prev.players || []).find((q) => q.name === p.name);
    const more = before ? p.hand - before.hand : 0;
    if (more > grew) { grew = more; to = p.name; }
  });
  return { pressed, fired, to: fired ? to : prev.facing || null, reloaded };
}

/** Whether `happened` is recent enough to announce (a screen opened later shows it only then). */
export const recent = (happened) => Boolean(happened) && performance.now() - happened.at < 5000;

/** Whether `state` is older than `than`: an earlier revision, or of the same revision an
 * earlier generation (a change of the launcher's own, which edits are not checked against). */
function older(state, than) {
  if (state.revision !== than.revision) return state.revision < than.revision;
  return (state.generation ?? 0) < (than.generation ?? 0);
}

export function render(state) {
  if (!state || typeof state.revision !== "number") return;
  if (store.state && older(state, store.state)) return;  // an older answer arrived late
  const newer = store.state && state.revision > store.revision;
  const happened = newer ? happenedBetween(store.state.table || {}, state.table || {}) : null;
  store.happened = happened
    ? Object.assign(happened, { revision: state.revision, at: performance.now() }) : null;
  if (store.state) followRename((store.state.table || {}).players, (state.table || {}).players);
  store.state = state;
  store.revision = state.revision;
  const lang = wantedLanguage(state.settings && state.settings.language);
  if (lang !== store.lang) loadTexts(lang).then(notify);
  else notify();
}

function notify() { listeners.forEach((fn) => fn()); }

// ---------------------------------------------------------------- following the table
// A live stream when the box gives one. The box refuses streams beyond its share per phone and
// its threads (429/503): then, as when the stream drops, the page reads the state every few
// seconds ("live updates paused") and asks for a stream again now and then. Offline only when
// the state cannot be read either.
const POLL_MS = 3000;
const STREAM_AGAIN_MS = 10000;  // the box's Retry-After for a refused stream

export function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (e) => render(JSON.parse(e.data)));
  source.onopen = () => {
    stopPolling();
    setConnection("live");
  };
  source.onerror = () => {
    startPolling();
    // A refused stream is closed for good; a dropped one the browser opens again by itself.
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, STREAM_AGAIN_MS);
  };
}

/** How this phone follows the table: "live" (the stream), "paused" (polling) or "offline". */
function setConnection(connection) {
  if (store.connection === connection) return;
  store.connection = connection;
  store.online = connection === "live";
  connectionListeners.forEach((fn) => fn(store.online));
}

let polling = null;

function startPolling() {
  if (polling === null) {
    polling = setInterval(poll, POLL_MS);
    poll();
  }
}

function stopPolling() {
  if (polling !== null) clearInterval(polling);
  polling = null;
}

async function poll() {
  let r = null;
  try { r = await fetch("/api/state"); } catch (e) { r = null; }
  if (polling === null) return;  // the stream came back meanwhile: it says more
  let state = null;
  if (r && r.ok) {
    try { state = await r.json(); } catch (e) { state = null; }  // cut short: read next time
  }
  if (polling === null) return;  // the stream came back while the answer was read
  if (state) {
    setConnection("paused");
    render(state);
  } else {
    setConnection("offline");
  }
}
