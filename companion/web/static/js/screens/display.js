// The table display: a phone or tablet lying in the middle of the table, in landscape, read from
// every seat without touching it: who must act (very large, in their colour), the direction, the
// presses owed, the magazine and the last firing. Sound is on here by default (mutable).

import { $, replay } from "../dom.js";
import { recent, standings, store, t, table } from "../store.js";
import { paint } from "../components/colours.js";
import { gameOver, renderActor } from "../components/flow.js";
import { renderQuestion } from "../components/camera.js";
import { sound } from "../sound.js";
import { firingText, renderLastCard } from "./table.js";

const MUTED = "uno-display-muted";
let shownRevision = -1;
let lastPress = null;  // the press the banner tells about
let awake = null;  // the screen wake lock, while the display is shown
let pressRound = null;  // the round and game of that press: a new one puts the banner away

const markup = `
<div class="display">
  <div id="display-cam-question" class="card cam-question" role="group" aria-live="polite" hidden></div>
  <div class="display-actor">
    <span id="display-name" class="display-name"></span>
    <span id="display-what" class="display-what"></span>
  </div>
  <div class="display-side">
    <p id="display-warn" class="display-warn" role="status"></p>
    <p id="display-last" class="last-card display-last" hidden></p>
    <div id="display-direction" class="display-direction" aria-live="polite"></div>
    <ul id="display-owed" class="owed"></ul>
    <div><span data-i18n="magazine"></span> <strong id="display-magazine"></strong></div>
    <div id="display-fired" class="display-fired" aria-live="polite"></div>
    <div class="row">
      <button type="button" id="display-sound" class="secondary" aria-pressed="true" data-i18n="sound"></button>
      <button type="button" id="display-close" class="secondary" data-i18n="close"></button>
    </div>
  </div>
</div>`;

function render() {
  const tb = table();
  if (gameOver()) {
    const winners = standings().winners || [];
    $("display-name").textContent = winners.join(" & ");
    paint($("display-name"), winners[0]);
    $("display-what").textContent = t("game_won");
  } else if (tb.round_over) {
    $("display-name").textContent = tb.winner || "—";
    paint($("display-name"), tb.winner);
    $("display-what").textContent = t("round_over");
  } else {
    renderActor($("display-name"), $("display-what"));
  }
  fitName($("display-name"));
  renderWarnings(tb);
  renderLastCard($("display-last"));
  $("display-direction").textContent = tb.direction === "right" ? "↻ " + t("direction_right")
    : "↺ " + t("direction_left");
  const owed = $("display-owed");
  owed.textContent = "";
  (tb.owed || []).forEach((o) => {
    const li = document.createElement("li");
    li.textContent = o.until_fire ? t("owes_until_fire", { player: o.player })
      : t("owes", { player: o.player, presses: o.presses });
    owed.append(li);
  });
  $("display-magazine").textContent = t("cards_count", { count: tb.magazine ?? 0 });
  const happened = store.happened;
  if (recent(happened) && happened.pressed && happened.revision !== shownRevision) {
    shownRevision = happened.revision;
    lastPress = happened;
    pressRound = roundOf(tb);
    paint($("display-fired"), happened.to);
    replay($("display-fired"), "pop");
  }
  // Redrawn every time: the last press stays on show, in the table's language of the moment.
  if (lastPress && pressRound !== roundOf(tb)) lastPress = null;  // a new round or game
  $("display-fired").textContent = lastPress ? firingText(lastPress) : "";
  // Sound as the browser plays it: on but refused until a tap says so, and the tap starts it.
  const blocked = sound.enabled && !sound.audible();
  $("display-sound").setAttribute("aria-pressed", String(sound.audible()));
  // Muted looks muted: its own words and look, not the same button with another state.
  $("display-sound").textContent = blocked ? t("sound_blocked") : t(sound.enabled ? "sound" : "sound_off");
  $("display-sound").classList.toggle("muted-sound", !sound.enabled);
  renderQuestion($("display-cam-question"));
}

const roundOf = (tb) => (store.state.score && (store.state.score.game || {}).id) + "|" + tb.round;

// The table's warnings, read from every seat: the round is over for someone, a player down to
// one card (and whether they said UNO).
function renderWarnings(tb) {
  const lines = [];
  if (tb.round_may_be_over && !tb.round_over) lines.push(t("went_out", { player: tb.round_may_be_over }));
  if (!tb.round_over) {
    (tb.players || []).filter((p) => p.hand === 1 && !p.eliminated).forEach((p) => {
      lines.push(t(p.uno ? "display_one_card" : "display_no_uno", { player: p.name }));
    });
  }
  $("display-warn").textContent = lines.join(" · ");
  $("display-warn").hidden = !lines.length;
}

// A name breaks between words only: a long one is set smaller until it fits its column.
function fitName(node) {
  node.style.fontSize = "";
  let size = parseFloat(getComputedStyle(node).fontSize);
  while (node.scrollWidth > node.clientWidth + 1 && size > 20) {
    size *= 0.9;
    node.style.fontSize = size + "px";
  }
}

function shown() {
  document.body.classList.add("table-display");
  sound.set(localStorage.getItem(MUTED) !== "1");
  // Lying in the middle of the table, nobody touches it: keep its screen on where allowed.
  if (navigator.wakeLock) {
    navigator.wakeLock.request("screen").then((lock) => { awake = lock; }).catch(() => {});
  }
}

function hidden() {
  document.body.classList.remove("table-display");
  sound.restorePhone();
  if (awake) { awake.release().catch(() => {}); awake = null; }
}

function wire(showScreen) {
  sound.onState(() => { if (document.body.classList.contains("table-display")) render(); });
  $("display-sound").addEventListener("click", () => {
    // On but refused by the browser: this tap starts it, it does not turn it off.
    if (sound.enabled && !sound.audible()) { sound.set(true); render(); return; }
    sound.set(!sound.enabled);
    localStorage.setItem(MUTED, sound.enabled ? "0" : "1");
    render();
  });
  $("display-close").addEventListener("click", () => showScreen("table"));
}

export default { id: "display", tab: null, markup, wire, render, shown, hidden };
