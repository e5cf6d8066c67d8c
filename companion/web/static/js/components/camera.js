// The camera over the discard pile, where the table sees it: the question the camera asks (on
// every phone's Table screen and on the table display: one tap settles it for all) — which card it
// was unsure of, which card was laid that it could not read, whose the Coup Extrême is (the turret
// sweeps meanwhile) — with the cards seen since waiting behind it, named; Poser Tout's count,
// asked beside the game until answered; and a card read drawn as a card. The Camera screen
// (screens/camera.js) has the live picture, on/off and the teach.
//
// state.camera: {configured, enabled, status, last_read, question: {id, needs: "card" | "target",
// missed, candidates, picture, player} | null, waiting: [{kind, colour}], counts: [{id, seq,
// player, picture}], teach, kept, sweeping}. Kinds are the camera's names: a digit is a number
// card; a waiting card of kind null was laid but not read.

import { el } from "../dom.js";
import { elision, joined } from "../message.js";
import { act, camera, store, t, table, tn } from "../store.js";
import { card, cardLabel, cardName, colours, lowestNumber, playable } from "./deck.js";

const local = { padFor: null, colour: "red", enlarged: null };

/** A read's words: "7 rouge", "Joker", "Poser Tout bleu" ("red 7", "Wild", "blue Discard All"). */
export function readLabel(read) {
  if (!read.kind) return t("cam_unread");
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

// The picture the camera took, as wide as the question (a 4 told from a 7 at 320 px); a tap
// shows it on the whole screen, another puts it back.
function seenPicture(question, box) {
  const big = local.enlarged === question.id;
  const button = el("button", { type: "button", class: "cam-seen-button" + (big ? " enlarged" : ""),
    "aria-label": t(big ? "close" : "cam_enlarge"), "aria-expanded": String(big),
    onclick: () => { local.enlarged = big ? null : question.id; renderQuestion(box); } });
  button.append(el("img", { class: "cam-seen", src: question.picture, alt: t("cam_seen") }));
  return button;
}

/** The cards seen since the question, waiting for its answer: "2 cartes en attente : …". */
function waitingLine() {
  const waiting = camera().waiting || [];
  if (!waiting.length) return null;
  const names = waiting.map((read) => (read.kind ? readLabel(read) : t("cam_unread")));
  return el("p", { class: "cam-waiting" }, tn("cam_waiting", waiting.length,
    { cards: joined(names, store.lang) }));
}

/** The camera's question in `box` (an empty element of the screen), or nothing when none is
 * open. Its title says what is asked: which card, which card was laid, whose is the target. */
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
  const waiting = (camera().waiting || []).map((r) => r.kind + r.colour).join();
  // What is asked is part of it: a card's question becomes its Coup Extrême's target question
  // under the same number, and every screen shows the new one at once.
  const offered = (question.candidates || []).map((r) => r.kind + r.colour).join();
  const key = [question.id, question.needs, question.missed, offered, store.lang, open,
    local.colour, local.enlarged, waiting, colours().join()].join("|");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.textContent = "";
  const target = question.needs === "target";
  const title = target ? "cam_target_title" : question.missed ? "cam_missed_card" : "cam_which_card";
  const words = el("div", { class: "cam-words" });
  words.append(el("h2", { class: "cam-title" }, t(title)));
  if (question.player) {
    words.append(el("p", { class: "cam-who" }, t("turn_of",
      { player: question.player, player_elision: elision(question.player) })));
  }
  const waitingNow = waitingLine();
  if (waitingNow) words.append(waitingNow);
  box.append(words, seenPicture(question, box));
  if (target) {  // a Coup Extrême read: the table names its target
    box.append(targetPicker(question));
    return;
  }
  const candidates = el("div", { class: "cam-candidates" });
  (question.candidates || []).slice(0, 3).forEach((read) => {
    // A card whose colour its player names (a Joker, a Coup Extrême) is asked with its colour,
    // once: one button for each colour in play.
    const named = card(read.kind) && card(read.kind).colour;
    (named ? colours().map((c) => ({ kind: read.kind, colour: c })) : [read]).forEach((face) => {
      candidates.append(cardFace(face, "button", { type: "button", "data-kind": face.kind,
        "data-colour": face.colour, onclick: () => answer(question, face) }));
    });
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
  if (candidates.childElementCount) box.append(candidates);
  box.append(row);
  if (open || !candidates.childElementCount) box.append(pad(question, box));
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
    // A card whose colour its player names takes the colour chosen above, with the card.
    const read = { kind: c.key, colour: local.colour };
    cards.append(el("button", { type: "button", "data-card": c.key,
      class: "card-btn " + c.key + (c.colour ? " colour-choice" : ""),
      onclick: () => answer(question, read) }, cardLabel(c.key)));
  });
  out.append(row, digits, cards);
  return out;
}

/** The camera's questions on a phone's Table screen besides the one above the pad: the turret's
 * sweep for a Coup Extrême, and each Poser Tout's count (optional: only the hand estimates move;
 * asked until answered, however many cards followed it). */
export function renderCameraAsks(box) {
  box.textContent = "";
  if (!cameraHere()) {
    box.hidden = true;
    return;
  }
  if (camera().sweeping) box.append(el("p", { class: "cam-sweep" }, t("cam_sweeping")));
  (camera().counts || []).forEach((count) => {
    const player = count.player || "";
    const ask = el("div", { class: "cam-count-ask", "data-id": String(count.id) });
    ask.append(el("h2", { class: "cam-title" }, t("cam_count_title")),
      el("p", { class: "cam-count-question" }, t("cam_count_question",
        { player, player_elision: elision(player) })));
    const digits = el("div", { class: "digits cam-count" });
    for (let n = 1; n <= 10; n++) {
      digits.append(el("button", { type: "button", class: "digit", "data-count": String(n),
        onclick: () => act("camera.answer", { id: count.id, count: n }, { revision: false }) },
      String(n)));
    }
    ask.append(digits, el("button", { type: "button", class: "secondary cam-count-skip",
      onclick: () => act("camera.dismiss", { id: count.id }, { revision: false }) }, t("cam_skip")));
    box.append(ask);
  });
  box.hidden = !box.childElementCount;
}
