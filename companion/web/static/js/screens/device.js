// Device screen: a drawing of the table with the turret and the cards it fires, test fire,
// reload, volume, voice, turret calibration, the page's addresses and QR code, PIN lock; the
// camera's last read beside the drawn launcher and the way to the Camera screen (or, with no
// camera, how to add one).

import { $, el, fill, replay, svg } from "../dom.js";
import {
  act, camera, device, hasAction, post, refreshSession, settings, store, t, table, tn,
} from "../store.js";
import { sound } from "../sound.js";
import { cameraHere, percent, readLabel } from "../components/camera.js";

let firedSeen = null;  // the launcher's count of cards fired, as last drawn (null: not open)

const markup = `
<h2 data-i18n="device"></h2>
<figure id="sim" class="card">
  <svg id="sim-svg" viewBox="-142 -122 284 244" role="img" aria-labelledby="sim-caption">
    <circle r="100" class="table-top"/>
    <g id="sim-seats"></g>
    <g id="sim-turret"><rect x="-18" y="-18" width="36" height="36" rx="6" class="turret"/>
      <polygon points="-8,-18 8,-18 0,-48" class="nozzle"/>
      <g id="sim-cards"></g></g>
    <g id="sim-read" hidden></g>
  </svg>
  <figcaption id="sim-caption"></figcaption>
</figure>
<p id="fire-note" class="fire-note" role="status"></p>
<div id="cam-device" class="row">
  <span id="cam-device-read" class="cam-device-read"></span>
  <button type="button" id="open-camera" class="secondary" data-i18n="camera"></button>
</div>
<p id="cam-how" class="muted" data-i18n="cam_how_to"></p>
<div class="cards">
  <button type="button" id="test-fire" data-i18n="test_fire"></button>
  <button type="button" id="reload2" data-i18n="reload"></button>
</div>
<p id="sound-note" class="warn" hidden></p>
<label class="switch"><input type="checkbox" id="phone-sound"> <span data-i18n="phone_sound"></span></label>
<label><span data-i18n="volume"></span> <input id="volume" type="range" min="0" max="10" step="1"></label>
<label class="switch"><input type="checkbox" id="voice"> <span data-i18n="voice"></span></label>
<label><span data-i18n="phone_language"></span> <select id="language2" class="language"></select></label>
<label><span data-i18n="voice_language"></span> <select id="voice-language"></select></label>
<h3 data-i18n="calibration"></h3>
<ol id="calibration" class="seats"></ol>
<div class="card" id="pin-card">
  <button type="button" id="logout" class="secondary" hidden data-i18n="logout"></button>
</div>`;

function seatAngle(i, n) { return Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n); }

let turretDrawn = null;  // the drawn turret's rotation, in degrees (kept continuous)

/** Where the drawn turret points, in degrees of the drawing, for the launcher's real bearing:
 * the seats are drawn evenly round the table at their own bearings (calibrated or not), so
 * between two seats' bearings the drawing turns in proportion, and at a seat's bearing it
 * points at that seat's drawing. */
function drawnBearing(bearing, bearings, n) {
  const seats = bearings.slice(0, n).map((b, i) => ({ b: ((b % 360) + 360) % 360,
    d: seatAngle(i, n) * 180 / Math.PI }));
  if (!seats.length) return bearing + 90;
  seats.sort((x, y) => x.b - y.b);
  const at = ((bearing % 360) + 360) % 360;
  let from = seats[seats.length - 1], to = seats[0];
  for (let k = 0; k < seats.length; k++) {
    const next = seats[(k + 1) % seats.length];
    if (seats[k].b <= at && (at < next.b || k === seats.length - 1)) {
      from = seats[k]; to = next; break;
    }
  }
  const span = (((to.b - from.b) % 360) + 360) % 360 || 360;
  const part = ((((at - from.b) % 360) + 360) % 360) / span;
  const turn = ((((to.d - from.d) % 360) + 540) % 360) - 180 || (seats.length === 1 ? 360 : 0);
  return from.d + part * turn;
}

/** Turns the drawn turret to the launcher's real bearing, the short way round the drawing. */
function drawTurret(bearing, bearings, n) {
  if (bearing === null || bearing === undefined) return;
  let deg = drawnBearing(bearing, bearings, n) + 90;
  if (turretDrawn !== null) deg += 360 * Math.round((turretDrawn - deg) / 360);
  turretDrawn = deg;
  $("sim-turret").style.transform = "rotate(" + deg + "deg)";
}

/** The caption: where the launcher really is, and where it is going while it turns. */
function turretCaption(dv, list) {
  const named = (seat) => (seat !== null && seat !== undefined && list[seat]
    ? list[seat].name : "—");
  const angle = Math.round(dv.turret_angle ?? 0);
  if (dv.turning && dv.turret_target !== null && dv.turret_target !== undefined) {
    return t("turret_turning", { name: named(dv.target_seat), angle,
      target: Math.round(dv.turret_target) });
  }
  if (dv.seat !== null && dv.seat !== undefined) {
    return t("facing_name", { name: named(dv.seat) }) + " (" + angle + "°)";
  }
  return dv.turret_angle === null || dv.turret_angle === undefined ? t("facing_name", { name: "—" })
    : t("turret_at", { angle });
}

function render() {
  const dv = device();
  const tb = table();
  const list = tb.players || [];
  const seatsG = $("sim-seats");
  seatsG.textContent = "";
  list.forEach((p, i) => {
    const a = seatAngle(i, list.length);
    const x = Math.cos(a) * 100, y = Math.sin(a) * 100;
    // The seat's name on a pill (shortened past 10 letters): three letters told Chloé from Chl…
    const name = p.name.length > 10 ? p.name.slice(0, 9) + "…" : p.name;
    const w = Math.max(28, name.length * 6.2 + 12);
    // The seat the launcher really faces (the table's may be ahead of it while it turns).
    const seat = svg("g", { class: "sim-seat" + (i === dv.seat ? " facing" : ""),
      "data-seat": p.name });
    seat.append(
      svg("rect", { x: x - w / 2, y: y - 11, width: w, height: 22, rx: 11, class: "seat-dot" }),
      svg("text", { x, y: y + 4, "text-anchor": "middle" }, name));
    seatsG.append(seat);
  });
  drawTurret(dv.turret_angle, dv.seat_angles || [], list.length);
  $("sim-caption").textContent = (dv.simulated === false ? t("hardware") : t("simulation")) + " — "
    + turretCaption(dv, list);
  // Whatever fired them (a test fire, a press), cards that left the launcher are drawn and said.
  if (firedSeen !== null && (dv.cards_fired ?? 0) > firedSeen) {
    const count = dv.cards_fired - firedSeen;
    animateFire(count);
    $("fire-note").textContent = tn("cards_fired", count);
  }
  firedSeen = dv.cards_fired ?? 0;
  $("phone-sound").checked = sound.enabled;
  const voice = dv.voice || {};
  // No sound card on the box: said here (and once wherever the player is: main.js).
  $("sound-note").hidden = !voice.sound_problem;
  $("sound-note").textContent = voice.sound_problem ? t("no_sound_card") : "";
  if (document.activeElement !== $("volume")) $("volume").value = voice.volume ?? 7;
  $("voice").checked = voice.enabled !== false;
  // The box's own language (its voice, and the page of a phone that chose none).
  if (document.activeElement !== $("voice-language")) {
    fill($("voice-language"), (store.session && store.session.languages) || ["fr", "en"],
      settings().language, (v) => t("lang_" + v));
  }
  $("voice-language").disabled = !hasAction("settings.update");
  $("volume").disabled = !hasAction("device.volume");
  $("voice").disabled = !hasAction("device.voice");
  $("test-fire").disabled = !hasAction("device.test_fire");
  renderCameraRead();
  renderSession();
  renderCalibration(list, dv.seat_angles || [], dv.turret_range || [0, 360]);
}

// The camera's last read, as the card lying in the tray beside the drawn launcher.
function renderCameraRead() {
  const here = cameraHere();
  const read = here ? camera().last_read : null;
  $("cam-device").hidden = !here;
  $("cam-how").hidden = here;
  $("cam-device-read").textContent = !here ? "" : read
    ? t("cam_last_read", { card: readLabel(read), percent: percent(read.confidence) })
    : t("cam_status_" + (camera().status || "off"));
  const tray = $("sim-read");
  tray.textContent = "";
  if (!read) {
    tray.setAttribute("hidden", "");
    return;
  }
  tray.removeAttribute("hidden");
  tray.setAttribute("class", "sim-read " + (read.colour || "colourless"));
  tray.append(svg("title", {}, readLabel(read)),
    svg("rect", { x: 100, y: 62, width: 40, height: 56, rx: 5, class: "sim-read-card" }));
  // A number's figure, large; another card's name from the card table, a word a line.
  const number = /^\d$/.test(read.kind);
  const words = number ? [read.kind] : readLabel({ kind: read.kind, colour: "" }).split(/\s+/);
  const text = svg("text", { x: 120, "text-anchor": "middle", class: number ? "figure" : "" });
  words.slice(0, 3).forEach((word, i) => {
    text.append(svg("tspan", { x: 120, y: number ? 96 : 84 + i * 10 + (3 - words.length) * 5 }, word));
  });
  tray.append(text);
}

function renderSession() {
  const session = store.session;
  if (!session) return;
  $("logout").hidden = !(session.pin_required && session.authenticated);
  $("pin-card").hidden = !session.pin_required;
}

function renderCalibration(list, angles, [low, high]) {
  const cal = $("calibration");
  if (cal.contains(document.activeElement)) return;
  cal.textContent = "";
  list.forEach((p, i) => {
    // Seat angles are the launcher's bearings over the turret's range (0…360° all round the
    // table through its gear); ✓ saves only a row that was moved.
    const input = el("input", { type: "range", min: String(low), max: String(high), step: "1",
      value: String(Math.round(angles[i] ?? (low + (high - low) * i / Math.max(1, list.length)))),
      "aria-label": t("angle_of", { player: p.name }) });
    const value = el("output", {}, input.value + "°");
    input.addEventListener("input", () => {
      value.textContent = input.value + "°";
      save.disabled = false;
    });
    const save = el("button", { type: "button", class: "small", "data-calibrate": String(i),
      "aria-label": t("save_angle", { player: p.name }), disabled: "",
      onclick: () => act("device.calibrate_seat", { seat: i, angle: Number(input.value) },
        { revision: false }) }, "✓");
    const row = el("li", { class: "seat" });
    cal.append(row);
    row.append(el("span", { class: "name" }, p.name), input, value,
      el("button", { type: "button", class: "small secondary", "data-face": String(i),
        "aria-label": t("aim_at", { player: p.name }), hidden: hasAction("device.face") ? null : "",
        onclick: () => act("device.face", { seat: i }, { revision: false }) }, "◎"), save);
  });
}

/** Cards flying out of the drawn turret (also called by the table screen when it fires). */
export function animateFire(count) {
  const g = $("sim-cards");
  g.textContent = "";
  const n = Math.min(count, 13);
  for (let k = 0; k < n; k++) {
    const card = svg("rect", { x: -6, y: -9, width: 12, height: 18, rx: 2, class: "flying" });
    card.style.animationDelay = (k * 60) + "ms";
    card.style.setProperty("--spread", ((k - n / 2) * 6) + "deg");
    g.append(card);
  }
  replay($("sim-turret"), "firing");
}

function wire(showScreen) {
  $("open-camera").addEventListener("click", () => showScreen("camera"));
  $("test-fire").addEventListener("click", async () => {
    $("fire-note").textContent = t("test_firing");
    // Refused (too soon, mid-round...): the message says why; the note no longer says it fires.
    if (!(await act("device.test_fire", {}, { revision: false }))) $("fire-note").textContent = "";
  });
  $("phone-sound").addEventListener("change", (e) => sound.setPhone(e.target.checked));
  $("reload2").addEventListener("click", () => act("table.reload", {}));
  $("volume").addEventListener("change", (e) => act("device.volume", { level: Number(e.target.value) },
    { revision: false }));
  $("voice").addEventListener("change", (e) => act("device.voice", { enabled: e.target.checked },
    { revision: false }));
  $("voice-language").addEventListener("change", (e) => act("settings.update",
    { language: e.target.value }, { revision: false }));
  $("logout").addEventListener("click", async () => { await post("/api/logout", {}); refreshSession(); });
}

// Cards fired while the screen was closed are not drawn when it opens again.
function hidden() { firedSeen = null; }

export default { id: "device", tab: "tab_device", markup, wire, render, hidden };
