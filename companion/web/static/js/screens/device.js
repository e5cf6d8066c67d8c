// Device screen: a drawing of the table with the turret and the cards it fires, test fire,
// reload, volume, voice, turret calibration, the page's addresses and QR code, PIN lock.

import { $, el, replay, svg } from "../dom.js";
import { act, device, hasAction, post, refreshSession, store, t, table } from "../store.js";

const markup = `
<h2 data-i18n="device"></h2>
<figure id="sim" class="card">
  <svg id="sim-svg" viewBox="-120 -120 240 240" role="img" aria-labelledby="sim-caption">
    <circle r="100" class="table-top"/>
    <g id="sim-seats"></g>
    <g id="sim-turret"><rect x="-18" y="-18" width="36" height="36" rx="6" class="turret"/>
      <polygon points="-8,-18 8,-18 0,-48" class="nozzle"/>
      <g id="sim-cards"></g></g>
  </svg>
  <figcaption id="sim-caption"></figcaption>
</figure>
<div class="cards">
  <button type="button" id="test-fire" data-i18n="test_fire"></button>
  <button type="button" id="reload2" data-i18n="reload"></button>
</div>
<label><span data-i18n="volume"></span> <input id="volume" type="range" min="0" max="10" step="1"></label>
<label class="switch"><input type="checkbox" id="voice"> <span data-i18n="voice"></span></label>
<label><span data-i18n="language"></span> <select id="language2" class="language"></select></label>
<h3 data-i18n="calibration"></h3>
<ol id="calibration" class="seats"></ol>
<div class="card">
  <h3 data-i18n="share"></h3>
  <p id="urls"></p>
  <img id="qr" src="/api/qr.svg" alt="" width="180" height="180">
</div>
<div class="card" id="pin-card">
  <button type="button" id="logout" class="secondary" hidden data-i18n="logout"></button>
</div>`;

function seatAngle(i, n) { return Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n); }

function render() {
  const dv = device();
  const tb = table();
  const list = tb.players || [];
  const seatsG = $("sim-seats");
  seatsG.textContent = "";
  list.forEach((p, i) => {
    const a = seatAngle(i, list.length);
    const x = Math.cos(a) * 100, y = Math.sin(a) * 100;
    const seat = svg("g", {});
    seat.append(
      svg("circle", { cx: x, cy: y, r: 14, class: "seat-dot" + (i === tb.facing_seat ? " facing" : "") }),
      svg("text", { x, y: y + 4, "text-anchor": "middle" }, p.name.slice(0, 3)));
    seatsG.append(seat);
  });
  const deg = list.length ? seatAngle(tb.facing_seat ?? 0, list.length) * 180 / Math.PI + 90 : 0;
  $("sim-turret").style.transform = "rotate(" + deg + "deg)";
  $("sim-caption").textContent = (dv.simulated === false ? t("hardware") : t("simulation")) + " — "
    + t("facing") + " " + (tb.facing || "—") + (dv.turret_angle !== undefined
      ? " (" + Math.round(dv.turret_angle) + "°)" : "");
  const voice = dv.voice || {};
  if (document.activeElement !== $("volume")) $("volume").value = voice.volume ?? 7;
  $("voice").checked = voice.enabled !== false;
  $("volume").disabled = !hasAction("device.volume");
  $("voice").disabled = !hasAction("device.voice");
  $("test-fire").disabled = !hasAction("device.test_fire");
  renderSession();
  renderCalibration(list, dv.seat_angles || []);
}

function renderSession() {
  const session = store.session;
  if (!session) return;
  $("logout").hidden = !(session.pin_required && session.authenticated);
  $("pin-card").hidden = !session.pin_required;
  const urls = $("urls");
  urls.textContent = "";
  session.urls.forEach((u) => { urls.append(el("a", { href: u }, u), el("br")); });
}

function renderCalibration(list, angles) {
  const cal = $("calibration");
  if (cal.contains(document.activeElement)) return;
  cal.textContent = "";
  list.forEach((p, i) => {
    const input = el("input", { type: "range", min: "-90", max: "90", step: "1",
      value: String(Math.round(angles[i] ?? (-90 + 180 * i / Math.max(1, list.length - 1)))),
      "aria-label": t("angle_of", { player: p.name }) });
    const value = el("output", {}, input.value + "°");
    input.addEventListener("input", () => { value.textContent = input.value + "°"; });
    const row = el("li", { class: "seat" });
    cal.append(row);
    row.append(el("span", { class: "name" }, p.name), input, value,
      el("button", { type: "button", class: "small secondary", "data-face": String(i),
        "aria-label": t("aim_at", { player: p.name }), hidden: hasAction("device.face") ? null : "",
        onclick: () => act("device.face", { seat: i }, { revision: false }) }, "◎"),
      el("button", { type: "button", class: "small", "data-calibrate": String(i),
        "aria-label": t("save_angle", { player: p.name }),
        onclick: () => act("device.calibrate_seat", { seat: i, angle: Number(input.value) },
          { revision: false }) }, "✓"));
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

function wire() {
  $("test-fire").addEventListener("click", () => act("device.test_fire", {}, { revision: false }));
  $("reload2").addEventListener("click", () => act("table.reload", {}));
  $("volume").addEventListener("change", (e) => act("device.volume", { level: Number(e.target.value) },
    { revision: false }));
  $("voice").addEventListener("change", (e) => act("device.voice", { enabled: e.target.checked },
    { revision: false }));
  $("logout").addEventListener("click", async () => { await post("/api/logout", {}); refreshSession(); });
}

export default { id: "device", tab: "tab_device", markup, wire, render };
