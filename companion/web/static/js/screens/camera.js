// Camera screen (from the Device screen, or /#camera): the live picture of the discard pile, the
// camera's state in words, its last read, on/off, and the guided teach of a deck: the box names
// the next card to show, dings when it has it, and the page follows its progress.

import { $, fill } from "../dom.js";
import { act, camera, t, tn } from "../store.js";
import { cardFace, percent, readLabel } from "../components/camera.js";

// The live picture is fetched a few times a second, only while this screen is open and the
// page visible: one frame at a time, the next asked once the last has come (or failed).
const FRAME_MS = 250;
const feed = { open: false, busy: false, timer: 0, frame: 0 };
const DECKS = ["extreme", "classic"];

const markup = `
<h2 data-i18n="camera"></h2>
<p id="cam-status" class="cam-status" role="status"></p>
<p id="cam-none" class="muted" data-i18n="cam_how_to"></p>
<label class="switch"><input type="checkbox" id="cam-on"> <span data-i18n="cam_on"></span></label>
<figure class="card cam-live">
  <img id="cam-live" alt="" width="640" height="480">
  <figcaption id="cam-read"></figcaption>
</figure>
<div class="card" id="cam-teach">
  <h3 data-i18n="cam_teach"></h3>
  <div id="cam-teach-idle">
    <p class="muted" data-i18n="cam_teach_help"></p>
    <label><span data-i18n="cam_teach_deck"></span> <select id="cam-deck"></select></label>
    <button type="button" id="cam-teach-start" class="primary" data-i18n="cam_teach_start"></button>
    <p id="cam-teach-result" role="status"></p>
  </div>
  <div id="cam-teach-active" hidden>
    <div class="cam-teach-now">
      <div id="cam-teach-card"></div>
      <div>
        <p class="cam-teach-next" data-i18n="cam_teach_next"></p>
        <progress id="cam-teach-progress" max="1" value="0"></progress>
        <p id="cam-teach-count" aria-live="polite"></p>
      </div>
    </div>
    <div class="row">
      <button type="button" id="cam-teach-skip" class="secondary" data-i18n="cam_skip"></button>
      <button type="button" id="cam-teach-finish" class="primary" data-i18n="cam_teach_finish"></button>
      <button type="button" id="cam-teach-cancel" class="secondary" data-i18n="cancel"></button>
    </div>
  </div>
</div>
<p id="cam-kept" class="muted"></p>
<button type="button" id="cam-close" class="secondary" data-i18n="close"></button>`;

function nextFrame() {
  clearTimeout(feed.timer);
  feed.timer = 0;
  if (!feed.open || feed.busy || document.hidden || !camera().enabled) return;
  feed.busy = true;
  feed.frame += 1;
  $("cam-live").src = "/api/camera/live.jpg?frame=" + feed.frame;
}

function frameDone() {
  feed.busy = false;
  if (feed.open) feed.timer = setTimeout(nextFrame, FRAME_MS);
}

function render() {
  const cam = camera();
  // A box without a camera: only how to add one (an address may still lead here).
  $("screen-camera").querySelectorAll(":scope > :not(h2, #cam-none, #cam-close)").forEach((part) => {
    part.hidden = !cam.configured;
  });
  $("cam-none").hidden = Boolean(cam.configured);
  const status = cam.configured ? cam.status || "off" : "off";
  $("cam-status").textContent = t("cam_status_" + status);
  $("cam-status").className = "cam-status " + status;
  $("cam-on").checked = Boolean(cam.enabled);
  $("cam-on").disabled = !cam.configured;
  $("cam-live").alt = t("cam_live");
  $("cam-live").hidden = !cam.enabled;
  const read = cam.last_read;
  $("cam-read").textContent = read
    ? t("cam_last_read", { card: readLabel(read), percent: percent(read.confidence) })
      + (read.sure ? "" : " — " + t("cam_unsure"))
    : t("cam_no_read");
  renderTeach(cam.teach);
  $("cam-kept").textContent = tn("cam_kept", cam.kept ?? 0);
  if (!feed.timer && !feed.busy) nextFrame();
}

function renderTeach(teach) {
  const active = Boolean(teach && teach.active);
  $("screen-camera").classList.toggle("teaching", active);
  $("cam-teach-idle").hidden = active;
  $("cam-teach-active").hidden = !active;
  if (document.activeElement !== $("cam-deck")) {
    fill($("cam-deck"), DECKS, (teach && teach.deck) || $("cam-deck").value || DECKS[0],
      (deck) => t("cam_deck_" + deck));
  }
  $("cam-teach-start").disabled = !camera().enabled;
  // A teach that ended says what it learned.
  $("cam-teach-result").textContent = teach && !active && teach.done
    ? tn("cam_teach_learned", teach.done) : "";
  if (!active) return;
  const card = $("cam-teach-card");
  card.textContent = "";
  if (teach.next) card.append(cardFace(teach.next));
  $("cam-teach-progress").max = Math.max(1, teach.total);
  $("cam-teach-progress").value = teach.done;
  $("cam-teach-count").textContent = t("cam_teach_progress", { done: teach.done, total: teach.total });
  $("cam-teach-skip").disabled = !teach.next;
}

function wire(showScreen) {
  const img = $("cam-live");
  img.addEventListener("load", frameDone);
  img.addEventListener("error", frameDone);
  document.addEventListener("visibilitychange", () => { if (!feed.timer && !feed.busy) nextFrame(); });
  $("cam-on").addEventListener("change", (e) => act("camera.enable", { on: e.target.checked },
    { revision: false }));
  $("cam-teach-start").addEventListener("click", () => act("camera.teach_start",
    { deck: $("cam-deck").value }, { revision: false }));
  [["cam-teach-skip", "camera.teach_skip"], ["cam-teach-finish", "camera.teach_finish"],
    ["cam-teach-cancel", "camera.teach_cancel"]].forEach(([id, name]) => {
    $(id).addEventListener("click", () => act(name, {}, { revision: false }));
  });
  $("cam-close").addEventListener("click", () => showScreen("device"));
}

function shown() { feed.open = true; }

function hidden() {
  feed.open = false;
  clearTimeout(feed.timer);
  feed.timer = 0;
}

export default { id: "camera", tab: null, markup, wire, render, shown, hidden };
