// The camera over the discard pile, where the table sees it: "Which card?" when a read was
// unsure (on every phone's Table screen and on the table display: one tap settles it for all),
// Poser Tout's count after the camera saw one (it sees only the top card), the turret's sweep for
// a Coup Extrême's target, and a card read drawn as a card. The Camera screen (screens/camera.js)
// has the live picture, on/off and the teach.
//
// state.camera: {configured, enabled, status, last_read, question: {id, candidates, picture,
// player} | null, teach, kept, sweeping}. Kinds are the camera's names: a digit is a number card.

import { el } from "../dom.js";
import { elision } from "../message.js";
import { act, camera, store, t, table } from "../store.js";
import { cardLabel, cardName, colours, lowestNumber, playable } from "./deck.js";

const local = { padFor: null, colour: "red", skipped: [] };

/** A read's words: "7 rouge", "Joker", "Poser Tout bleu" ("red 7", "Wild", "blue Discard All"). */
export function readLabel(read) {
  return cardName(/^\d$/.test(read.kind) ? read.kind : cardLabel(read.kind), read.colour);
}

/** How likely a read is, as a percentage in the phone's language. */
export const percent = (confidence) => new Intl.NumberFormat(store.lang, { style: "percent" })
  .format(confidence || 0);

/** A card drawn as the page draws cards: its colour (four colours for a wild) and its words. */
export function cardFace(read, tag, attrs) {
  const face = el(tag || "span", { ...attrs, class: "cam-card " + (read.colour || "colourless") });
  face.append(el("span", { class: "cam-card-what" }, readLabel(read)));
  return face;
}

/** Whether the camera is part of this box at all (else the page shows none of it). */
export const cameraHere = () => Boolean(camera().configured);

function answer(question, read) {
  local.padFor = null;
  act("camera.answer", { id: question.id, kind: read.kind, colour: read.colour },
    { revision: false });
}

/** "Which card?" in `box` (an empty element of the screen), or nothing when nobody is asked. */
export function renderQuestion(box) {
  const question = cameraHere() ? camera().question : null;
  box.hidden = !question;
  if (!question) {
    box.dataset.key = "";
    return;
  }
  if (local.padFor !== null && local.padFor !== question.id) local.padFor = null;
  const open = local.padFor === question.id;
  // Redrawn only when it changed: the picture is not fetched again at every press.
  const key = [question.id, store.lang, open, local.colour, colours().join()].join("|");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.textContent = "";
  const head = el("div", { class: "cam-head" });
  const words = el("div", { class: "cam-words" });
  words.append(el("h2", { class: "cam-title" }, t("cam_which_card")));
  if (question.player) {
    words.append(el("p", { class: "cam-who" }, t("turn_of",
      { player: question.player, player_elision: elision(question.player) })));
  }
  head.append(el("img", { class: "cam-seen", src: question.picture, alt: t("cam_seen"),
    width: "96", height: "72" }), words);
  if (question.needs === "target") {  // a Coup Extrême read: the table names its target
    box.append(head, targetPicker(question));
    return;
  }
  const candidates = el("div", { class: "cam-candidates" });
  (question.candidates || []).slice(0, 3).forEach((read) => {
    const face = cardFace(read, "button", { type: "button", "data-kind": read.kind,
      "data-colour": read.colour, onclick: () => answer(question, read) });
    face.append(el("span", { class: "cam-card-sure" }, percent(read.confidence)));
    candidates.append(face);
  });
  const row = el("div", { class: "row cam-other" });
  row.append(
    el("button", { type: "button", class: "secondary cam-other-card", "aria-expanded": String(open),
      onclick: () => { local.padFor = open ? null : question.id; renderQuestion(box); } },
    t("cam_other_card")),
    el("button", { type: "button", class: "secondary cam-nothing", onclick: () => {
      local.padFor = null;
      act("camera.dismiss", { id: question.id }, { revision: false });
    } }, t("cam_nothing")));
  box.append(head, candidates, row);
  if (open) box.append(pad(question, box));
}

// A Coup Extrême the camera read: the turret sweeps (HIT when it faces the target), or a tap on
// the target's name here.
function targetPicker(question) {
  const picker = el("div", { class: "cam-target" });
  picker.append(el("p", {}, t("cam_pick_target",
    { player: question.player, player_elision: elision(question.player || "") })));
  const chips = el("div", { class: "chips" });
  (table().players || []).filter((p) => p.name !== question.player && !p.eliminated)
    .forEach((p) => chips.append(el("button", { type: "button", class: "chip",
      "data-target": p.name, onclick: () => act("camera.answer",
        { id: question.id, kind: "coup_extreme", target: p.name }, { revision: false }) },
    p.name)));
  picker.append(chips);
  return picker;
}

// The card pad for a card the camera did not offer: a colour, then a number or a card.
function pad(question, box) {
  const wanted = colours();
  if (!wanted.includes(local.colour)) local.colour = wanted[0];
  const out = el("div", { class: "cam-pad" });
  const row = el("div", { class: "row", role: "radiogroup", "aria-label": t("colour") });
  wanted.forEach((c) => {
    row.append(el("button", { type: "button", role: "radio", class: "colour " + c,
      "data-colour": c, "aria-checked": String(c === local.colour),
      onclick: () => { local.colour = c; renderQuestion(box); } }, t("colour_" + c)));
  });
  const digits = el("div", { class: "digits" });
  for (let v = lowestNumber(); v <= 9; v++) {
    digits.append(el("button", { type: "button", class: "digit", "data-value": String(v),
      onclick: () => answer(question, { kind: String(v), colour: local.colour }) }, String(v)));
  }
  const cards = el("div", { class: "cards" });
  playable().filter((c) => c.key !== "number").forEach((c) => {
    // A card whose colour is named by its player has none printed: the camera reads it so.
    const read = { kind: c.key, colour: c.colour ? "" : local.colour };
    cards.append(el("button", { type: "button", "data-card": c.key,
      class: "card-btn " + c.key + (c.colour ? " colour-choice" : ""),
      onclick: () => answer(question, read) }, cardLabel(c.key)));
  });
  out.append(row, digits, cards);
  return out;
}

// The last card played, when the camera saw a Poser Tout there and nobody told its count here.
function discardAllSeen() {
  const plays = (table().log || []).filter((line) => line.event === "play");
  const last = plays[plays.length - 1];
  if (!last || last.source !== "camera" || !last.card || last.card.kind !== "discard_all") return null;
  return local.skipped.includes(last.seq) ? null : last;
}

/** The camera's questions on a phone's Table screen besides "Which card?": Poser Tout's count
 * (optional: only the hand estimates move) and the turret's sweep for a Coup Extrême. */
export function renderCameraAsks(box) {
  box.textContent = "";
  if (!cameraHere()) {
    box.hidden = true;
    return;
  }
  if (camera().sweeping) box.append(el("p", { class: "cam-sweep" }, t("cam_sweeping")));
  const line = discardAllSeen();
  if (line) {
    const player = line.player || "";
    box.append(el("p", { class: "cam-count-question" }, t("cam_count_question",
      { player, player_elision: elision(player) })));
    const digits = el("div", { class: "digits cam-count" });
    for (let n = 1; n <= 10; n++) {
      digits.append(el("button", { type: "button", class: "digit", "data-count": String(n),
        onclick: () => act("table.replace", { seq: line.seq, action: "table.play",
          payload: { ...line.payload, count: n } }) }, String(n)));
    }
    box.append(digits, el("button", { type: "button", class: "secondary cam-count-skip",
      onclick: () => { local.skipped.push(line.seq); renderCameraAsks(box); } }, t("cam_skip")));
  }
  box.hidden = !box.childElementCount;
}
