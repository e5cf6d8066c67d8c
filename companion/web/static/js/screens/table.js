// Table screen: whose turn, owed presses, magazine, the HIT button and the cards played.
// The card buttons come from the box's card table (components/deck.js); the questions the rules
// ask the table (who lacked Lotso's colour, did the colour come, a challenge, a broken face) show
// in #asks when they arise.

import { $, el, replay } from "../dom.js";
import { elision } from "../message.js";
import {
  act, camera, device, hasAction, players, recent, score, store, t, table, tn,
} from "../store.js";
import { paint } from "../components/colours.js";
import {
  actor, gameOver, renderActor, renderFlow, roundOverMarkup, wireFlow,
} from "../components/flow.js";
import { animateFire } from "./device.js";
import { card, cardLabel, cardName, colours, lowestNumber, playable, rules } from "../components/deck.js";
import { renderRoundLog, roundLogMarkup, wireRoundLog } from "../components/roundlog.js";
import { cameraHere, renderCameraAsks, renderQuestion } from "../components/camera.js";
import { callsMarkup, endRound, renderCalls } from "../components/calls.js";

const local = { chosen: null, colour: "red", lastRevision: -1, bannerTimer: 0, banner: null, lacked: [],
  asked: null };

// One screen per turn: who acts and what they owe at the top, HIT at the bottom (the thumb's
// place), and between them the players and the card pad, which scroll on their own when the
// phone is short: HIT, the actor and the owed presses never leave the screen.
const markup = `
<div id="status" class="status card">
  <div class="actor"><span id="actor-name" class="actor-name"></span>
    <span id="actor-what" class="actor-what"></span></div>
  <ul id="owed" class="owed" aria-live="polite"></ul>
  <div class="meta">
    <span id="turn-of"></span>
    <span id="direction" class="direction" aria-live="polite"></span>
    <span class="facing"><span data-i18n="facing"></span> <strong id="facing">—</strong></span>
    <span class="magazine"><span data-i18n="magazine"></span>
      <meter id="magazine-meter" min="0" max="80" low="20" optimum="80" value="0"></meter>
      <span id="magazine"></span> <span id="magazine-low" class="warn" hidden data-i18n="magazine_low"></span></span>
    <span id="round-info" class="muted"></span>
    <span id="side" class="side" hidden></span>
    <span class="undo-row">
      <button type="button" id="table-undo" class="secondary" data-i18n="undo"></button>
      <button type="button" id="table-redo" class="secondary" data-i18n="redo"></button>
    </span>
  </div>
  <p id="last-card" class="last-card" hidden></p>
  <p id="jam-note" class="warn" role="alert" hidden></p>
  <div id="fired-banner" class="fired" role="alert" hidden></div>
</div>
<div class="table-body">
<div id="table-scroll" class="table-scroll">
<div id="cam-question" class="card cam-question" role="group" aria-live="polite" hidden></div>
<div id="cam-asks" class="card asks" hidden></div>
${roundOverMarkup}
<div id="play">
<div id="target-picker" class="card" hidden>
  <p data-i18n="choose_target"></p>
  <div class="chips" id="targets"></div>
  <button type="button" class="secondary" id="target-cancel" data-i18n="cancel"></button>
</div>
<div id="asks" class="card asks" hidden></div>
<fieldset class="colours pad">
  <legend class="sr" data-i18n="colour"></legend>
  <div class="row" id="colour-row" role="radiogroup" data-i18n-label="colour"></div>
</fieldset>
<fieldset class="pad">
  <legend class="sr" data-i18n="play_card"></legend>
  <div class="digits" id="digits"></div>
  <div class="cards" id="cards"></div>
</fieldset>
<h2 class="sr" data-i18n="players"></h2>
<div id="chips" class="chips" role="radiogroup" data-i18n-label="chosen_player"></div>
<fieldset>
  <legend data-i18n="penalties"></legend>
  <div class="cards">
    <button type="button" data-act="table.call_uno" data-i18n="call_uno"></button>
    <button type="button" data-act="table.contre_uno" data-i18n="contre_uno"></button>
    <button type="button" data-act="table.suggestion" data-i18n="suggestion"></button>
    <button type="button" data-act="table.round_won" data-i18n="round_won"></button>
  </div>
</fieldset>
</div>
<div class="cards">
  <button type="button" id="start-round" data-i18n="start_round"></button>
  <button type="button" id="reload" data-i18n="reload"></button>
  <button type="button" id="open-display" class="secondary" data-i18n="table_display"></button>
  <button type="button" id="open-rules" class="secondary" data-i18n="house_rules"></button>
</div>
${roundLogMarkup}
</div>
</div>
${callsMarkup}
<button id="hit" class="hit" type="button"><span class="hit-word" data-i18n="hit"></span>
  <span id="hit-who" class="hit-who"></span></button>`;

// Whom the calls apply to unless a chip is tapped: who just played (the one who may have
// forgotten UNO or just gone out), not who plays next.
function defaultPlayer() {
  const tb = table();
  const names = players();
  const last = tb.last_card && tb.last_card.player;
  if (names.includes(last)) return last;
  const at = names.indexOf(tb.active);
  if (at < 0) return tb.active;
  // Play goes to the next seat "left" (seat + 1): who played before the active player sits one
  // seat back against the play (a round's start: the dealer, never the next player).
  const step = tb.direction === "left" ? 1 : -1;
  return names[(at - step + names.length) % names.length];
}

function chosenPlayer() { return local.chosen || defaultPlayer(); }

// "Won the round" for a player the box counts above one card: ask first (the hand becomes 0).
async function call(name, player) {
  const seat = (table().players || []).find((p) => p.name === player);
  if (name === "table.round_won" && seat && seat.hand > 1
      && !confirm(t("confirm_win", { player, count: seat.hand }))) return;
  if (name === "table.round_won") { await endRound(player); return; }
  if (await act(name, { player })) $("table-scroll").scrollTop = 0;
}

// A new round in the middle of one deals again: ask first.
function startRound() {
  const tb = table();
  if (!tb.round_over && tb.events > 0 && !confirm(t("confirm_redeal"))) return;
  act("table.start_round", {});
}

function wire(showScreen) {
  wireFlow(showScreen);
  $("open-display").addEventListener("click", () => showScreen("display"));
  $("fired-banner").addEventListener("click", () => { $("fired-banner").hidden = true; });
  $("open-rules").addEventListener("click", () => showScreen("rules"));
  // In simulation device.hit makes a real edge on the mock pin; on hardware a remote press.
  // The press names whom it is for (store.js): a double tap is "already done", not a press
  // for the next player.
  $("hit").addEventListener("click", () => act(hasAction("device.hit") ? "device.hit" : "table.press",
    {}));
  document.querySelectorAll("#screen-table [data-act]").forEach((b) => {
    b.addEventListener("click", () => call(b.dataset.act, chosenPlayer()));
  });
  $("target-cancel").addEventListener("click", () => { $("target-picker").hidden = true; });
  $("start-round").addEventListener("click", startRound);
  $("reload").addEventListener("click", () => act("table.reload", {}));
  $("table-undo").addEventListener("click", () => act("table.undo", {}));
  wireRoundLog();
  for (let v = 0; v <= 9; v++) {
    $("digits").append(el("button", { type: "button", class: "digit", "data-value": String(v),
      onclick: () => playNumber(v) }, String(v)));
  }
}

function playNumber(value) {
  const payload = { card: "number", value, colour: local.colour };
  if (value === 7 && rules().seven_swap) pickTarget(payload);  // 003 0/7: swap with whom?
  else play(payload);
}

function render() {
  const tb = table();
  renderFlow();
  // Only what the state allows: no play controls once the round or the game is over.
  $("play").hidden = Boolean(tb.round_over) || gameOver();
  document.querySelector("#screen-table .undo-row").hidden = gameOver();
  // Game over: nobody's turn any more, nothing to press.
  $("status").hidden = gameOver();
  if (tb.round_over || gameOver()) $("fired-banner").hidden = true;
  renderActor($("actor-name"), $("actor-what"));
  $("hit-who").textContent = actor().won || actor().out ? "" : actor().player || "";
  turnOf($("turn-of"), tb.active || "—");
  // Whose turn is said apart only while someone else owes presses first.
  $("turn-of").classList.toggle("sr", !(tb.owed || []).length);
  $("facing").textContent = tb.facing || "—";
  $("direction").textContent = tb.direction === "right" ? "↻ " + t("direction_right")
    : "↺ " + t("direction_left");
  const owed = $("owed");
  owed.textContent = "";
  (tb.owed || []).forEach((o) => {
    let text = t("owes", { player: o.player, presses: o.presses });
    if (o.until === "fire") text = t("owes_until_fire", { player: o.player });
    if (o.until === "colour") {
      text = t("owes_until_colour", { player: o.player, colour_key: o.colour });
    }
    if (o.for && o.for !== o.player) text += " " + t("owes_for", { player: o.for });
    const reason = card(o.reason) ? cardLabel(o.reason) : t("reason_" + o.reason);
    owed.append(el("li", { class: "owe" }, text + " — " + reason));
  });
  $("side").hidden = !tb.side;
  $("side").textContent = tb.side ? t("side_" + tb.side) : "";
  $("side").className = "side " + (tb.side || "");
  $("magazine").textContent = t("cards_count", { count: tb.magazine ?? 0 });
  $("magazine-meter").max = Math.max(tb.magazine_full || 0, tb.magazine || 0, 1);
  $("magazine-meter").value = tb.magazine ?? 0;
  $("magazine-low").hidden = !(tb.magazine_low || tb.needs_reload);
  // The launcher's fault, named as the beam saw it: what to do comes first.
  $("jam-note").hidden = !tb.jam;
  $("jam-note").textContent = tb.jam ? t("jam_" + (tb.jam_fault || "jam")) : "";
  $("round-info").textContent = t("round_number", { round: tb.round ?? 0 });
  const happened = store.happened;
  if (recent(happened) && happened.pressed && local.lastRevision !== happened.revision) {
    local.lastRevision = happened.revision;
    showFiring(happened);
  }
  renderChips(tb);
  renderCalls($("calls"), render);
  renderLastCard($("last-card"));
  renderColours();
  renderCardButtons();
  renderAsks(tb);
  renderCamera();
  renderRoundLog();
  if (local.banner && !$("fired-banner").hidden) $("fired-banner").textContent = firingText(local.banner);
  // No press while the launcher cannot fire (empty or jammed): reload first.
  $("hit").disabled = Boolean(store.session && !store.session.remote_press
    && device().simulated === false) || Boolean(tb.needs_reload || tb.jam);
  // Over, nothing owed: nothing to press; the count gets HIT's room and the status's small print.
  const counting = Boolean(tb.round_over) && !(tb.owed || []).length;
  $("hit").hidden = gameOver() || counting;
  $("status").classList.toggle("over", counting);
  // A round that ends or begins shows from its top (the count, the pad).
  const phase = String(tb.round) + Boolean(tb.round_over);
  if (phase !== local.phase) {
    local.phase = phase;
    $("table-scroll").scrollTop = 0;
  }
  $("table-undo").disabled = !tb.can_undo;
  // Once a round is over, the round-over panel leads to the next one (when there is a score game).
  $("start-round").hidden = gameOver() || (Boolean(tb.round_over) && Boolean(score().game));
}

/** The last card played and, for a wild, the colour named: "Dernière carte : Joker → bleu". */
export function renderLastCard(node) {
  const last = table().last_card;
  node.hidden = !last || !last.card || Boolean(table().round_over);
  if (node.hidden) return;
  const c = card(last.card);
  const what = last.card === "number" ? String(last.value ?? "") : cardLabel(last.card);
  const wild = Boolean(c && c.colour);
  const text = wild && last.colour
    ? t("last_card_named", { card: what, colour: t("colour_" + last.colour) })
    : t("last_card", { card: cardName(what, last.colour) });
  node.textContent = last.player ? text + " — " + last.player : text;
  node.dataset.colour = last.colour || "";
}

// The camera's "Which card?" comes first in the pad, above the cards, HIT still under it.
function renderCamera() {
  renderQuestion($("cam-question"));
  renderCameraAsks($("cam-asks"));
  const question = cameraHere() && camera().question ? camera().question.id : null;
  if (question !== null && question !== local.asked) $("table-scroll").scrollTop = 0;
  local.asked = question;
}

// "Au tour d'Ana" / "Ana's turn": the message decides the words around the name (elision
// included, from the name itself), the name goes in bold.
function turnOf(node, name) {
  const mark = "\u0000";
  const [before, after = ""] = t("turn_of", { player: mark, player_elision: elision(name) })
    .split(mark);
  node.textContent = before;
  node.append(el("strong", { id: "active" }, name), after);
}

/** The banner after a press: how many cards and who received them, or that nothing came out. */
export function firingText(happened) {
  return happened.fired > 0 ? tn("fired", happened.fired, { player: happened.to || "" })
    : t("fired_nothing", { player: happened.to || "" });
}

function showFiring(happened) {
  const banner = $("fired-banner");
  local.banner = happened;  // its text is redrawn in the new language if the table switches
  banner.textContent = firingText(happened);
  banner.classList.toggle("empty", !happened.fired);
  paint(banner, happened.to);
  banner.hidden = false;
  replay(banner, "pop");
  clearTimeout(local.bannerTimer);
  local.bannerTimer = setTimeout(() => { banner.hidden = true; }, 5000);
  if (happened.fired) animateFire(happened.fired);
}

// Player chips: the chosen player is who the penalty buttons apply to.
function renderChips(tb) {
  if (!players().includes(local.chosen)) local.chosen = null;
  const chips = $("chips");
  chips.textContent = "";
  // Even rows: four players two by two, otherwise three to a row.
  const count = (tb.players || []).length;
  chips.style.setProperty("--cols", String(count === 2 || count === 4 ? 2 : 3));
  (tb.players || []).forEach((p) => {
    const chosen = chosenPlayer() === p.name;
    const chip = el("button", {
      type: "button", role: "radio", class: "chip" + (p.name === tb.active ? " active" : ""),
      "aria-checked": String(chosen), "data-player": p.name,
      onclick: () => { local.chosen = p.name; renderChips(table()); },
    });
    if (p.eliminated) chip.disabled = true;
    const name = el("span", { class: "name" }, p.name);
    paint(name, p.name);
    chip.append(name,
      el("span", { class: "hand" }, t("hand", { count: p.hand })));
    // One card left: a badge on the chip (UNO when they said it, else a warning to watch).
    if (p.hand === 1 && !p.eliminated) {
      chip.append(el("span", { class: "badge" + (p.uno ? "" : " one-card"),
        "data-one-card": p.name }, p.uno ? "UNO" : t("one_card")));
    } else if (p.uno) chip.append(el("span", { class: "badge" }, "UNO"));
    chips.append(chip);
  });
  // A player who said UNO (or was already caught) cannot be caught for it: the box would refuse.
  const chosen = (tb.players || []).find((p) => p.name === chosenPlayer());
  document.querySelector('#screen-table [data-act="table.contre_uno"]').disabled =
    Boolean(chosen && chosen.uno);
}

function renderColours() {
  const row = $("colour-row");
  const wanted = colours();
  if (!wanted.includes(local.colour)) local.colour = wanted[0];
  if (row.dataset.set !== wanted.join()) {  // Flip's dark side has its own colours
    row.dataset.set = wanted.join();
    row.textContent = "";
    wanted.forEach((c) => {
      row.append(el("button", {
        type: "button", role: "radio", class: "colour " + c, "data-colour": c,
        onclick: () => { local.colour = c; renderColours(); },
      }));
    });
  }
  row.querySelectorAll("button").forEach((b) => {
    b.setAttribute("aria-checked", String(b.dataset.colour === local.colour));
    b.textContent = t("colour_" + b.dataset.colour);
  });
}

function renderCardButtons() {
  const lowest = lowestNumber();
  $("digits").querySelectorAll("button").forEach((b) => {
    b.hidden = Number(b.dataset.value) < lowest;
  });
  const cards = $("cards");
  const kinds = playable().filter((c) => c.key !== "number");
  if (cards.dataset.set === kinds.map((c) => c.key).join() + store.lang) return;
  cards.dataset.set = kinds.map((c) => c.key).join() + store.lang;
  cards.textContent = "";
  kinds.forEach((c) => {
    // A card after which a colour is named looks like a wild (the card table's `colour`).
    cards.append(el("button", { type: "button", "data-card": c.key,
      class: "card-btn " + c.key + (c.colour ? " colour-choice" : ""),
      onclick: () => playCard(c) }, cardLabel(c.key)));
  });
}

function pickTarget(payload) {
  const targets = $("targets");
  targets.textContent = "";
  players().filter((p) => p !== table().active).forEach((p) => {
    targets.append(el("button", { type: "button", class: "chip", "data-target": p,
      onclick: () => {
        $("target-picker").hidden = true;
        play({ ...payload, target: p });
      } }, p));
  });
  $("target-picker").hidden = false;
  $("table-scroll").scrollTop = 0;  // the question comes first, above the pad
}

function playCard(c) {
  const payload = { card: c.key, colour: local.colour };
  if (c.target) {
    pickTarget(payload);
    return;
  }
  if (c.effect === "discard_all") {  // Poser Tout: how many cards left the hand
    const count = Number(prompt(t("discard_all_count"), "2"));
    if (!Number.isInteger(count) || count < 1) return;
    payload.count = count;
  }
  play(payload);
}

// After a card the pad goes back to its top: the next player finds the colours and numbers.
async function play(payload) {
  if (await act("table.play", payload)) $("table-scroll").scrollTop = 0;
}

// The questions the rules put to the table, as buttons.
function renderAsks(tb) {
  const asks = $("asks");
  asks.textContent = "";
  const head = (tb.owed || [])[0];
  if (tb.asking) {
    // 002 Lotso: who had no card of the colour? (none ticked: everyone had one)
    const others = players().filter((p) => p !== tb.asking.player);
    local.lacked = local.lacked.filter((p) => others.includes(p));
    asks.append(el("p", {}, t("lotso_question", { player: tb.asking.player,
      colour: t("colour_" + tb.asking.colour) })));
    const chips = el("div", { class: "chips", id: "lacked" });
    others.forEach((p) => {
      chips.append(el("button", { type: "button", class: "chip", role: "checkbox",
        "data-lacked": p, "aria-checked": String(local.lacked.includes(p)),
        onclick: () => {
          local.lacked = local.lacked.includes(p) ? local.lacked.filter((x) => x !== p)
            : [...local.lacked, p];
          renderAsks(table());
        } }, p));
    });
    asks.append(chips, el("button", { type: "button", id: "lacked-send",
      onclick: () => { act("table.lacked", { players: local.lacked }); local.lacked = []; } },
    local.lacked.length ? t("lotso_send") : t("lotso_all_had")));
  }
  if (head && head.until === "colour") {
    asks.append(el("button", { type: "button", id: "colour-came",
      onclick: () => act("table.colour_came", {}) },
    t("colour_came", { colour: t("colour_" + head.colour) })));
  }
  const hit = head && card(head.reason);
  const lastBy = tb.last_card && tb.last_card.player;
  if (hit && hit.challenge && rules().challenge && lastBy && lastBy !== head.player
      && head.made === 0) {
    const row = el("div", { class: "row" });
    row.append(
      el("button", { type: "button", id: "challenge-guilty",
        onclick: () => act("table.challenge", { guilty: true }) }, t("challenge_guilty")),
      el("button", { type: "button", id: "challenge-innocent", class: "secondary",
        onclick: () => act("table.challenge", { guilty: false }) }, t("challenge_innocent")));
    asks.append(el("p", {}, t("challenge_question", { player: head.player, culprit: lastBy })), row);
  }
  if (tb.mimic) {
    asks.append(el("button", { type: "button", id: "mimic-broken",
      onclick: () => act("table.mimic_broken", { player: tb.mimic }) },
    t("mimic_broken", { player: tb.mimic })));
  }
  asks.hidden = !asks.childElementCount;
}

export default { id: "table", tab: "tab_table", markup, wire, render };
