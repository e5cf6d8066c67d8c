// Table screen: whose turn, owed presses, magazine, the HIT button and the cards played.
// The card buttons come from the box's card table (components/deck.js); the questions the rules
// ask the table (who lacked Lotso's colour, did the colour come, a challenge, a broken face) show
// in #asks when they arise.

import { $, el, replay } from "../dom.js";
import {
  act, device, hasAction, players, recent, score, store, t, table, tn,
} from "../store.js";
import { paint } from "../components/colours.js";
import {
  actor, gameOver, renderActor, renderFlow, roundOverMarkup, wireFlow,
} from "../components/flow.js";
import { animateFire } from "./device.js";
import { card, cardLabel, colours, lowestNumber, playable, rules } from "../components/deck.js";
import { renderRoundLog, roundLogMarkup, wireRoundLog } from "../components/roundlog.js";

const local = { chosen: null, colour: "red", lastRevision: -1, bannerTimer: 0, banner: null, lacked: [] };

const markup = `
<div id="fired-banner" class="fired" role="alert" hidden></div>
${roundOverMarkup}
<div id="play">
<div class="status card">
  <div class="actor"><span id="actor-name" class="actor-name"></span>
    <span id="actor-what" class="actor-what"></span></div>
  <div class="turn"><span id="turn-of"><span data-i18n="turn_of"></span> <strong id="active">—</strong></span>
    <span id="direction" class="direction" aria-live="polite"></span></div>
  <div class="facing"><span data-i18n="facing"></span> <strong id="facing">—</strong></div>
  <ul id="owed" class="owed" aria-live="polite"></ul>
  <div class="magazine"><span data-i18n="magazine"></span>
    <meter id="magazine-meter" min="0" max="80" low="20" optimum="80" value="0"></meter>
    <span id="magazine"></span> <span id="magazine-low" class="warn" hidden data-i18n="magazine_low"></span></div>
  <div id="round-info" class="muted"></div>
  <div id="side" class="side" hidden></div>
</div>
<div id="asks" class="card asks" hidden></div>
<button id="hit" class="hit" type="button"><span class="hit-word" data-i18n="hit"></span>
  <span id="hit-who" class="hit-who"></span></button>
<h2 class="sr" data-i18n="players"></h2>
<div id="chips" class="chips" role="radiogroup" data-i18n-label="chosen_player"></div>
<fieldset class="colours">
  <legend data-i18n="colour"></legend>
  <div class="row" id="colour-row" role="radiogroup"></div>
</fieldset>
<fieldset>
  <legend data-i18n="play_card"></legend>
  <div class="digits" id="digits"></div>
  <div class="cards" id="cards"></div>
</fieldset>
<div id="target-picker" class="card" hidden>
  <p data-i18n="choose_target"></p>
  <div class="chips" id="targets"></div>
  <button type="button" class="secondary" id="target-cancel" data-i18n="cancel"></button>
</div>
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
  <button type="button" id="table-undo" class="secondary" data-i18n="undo"></button>
  <button type="button" id="open-display" class="secondary" data-i18n="table_display"></button>
  <button type="button" id="open-rules" class="secondary" data-i18n="house_rules"></button>
</div>
${roundLogMarkup}`;

function chosenPlayer() { return local.chosen || table().active; }

// A new round in the middle of one deals again: ask first.
function startRound() {
  const tb = table();
  if (!tb.round_over && tb.events > 0 && !confirm(t("confirm_redeal"))) return;
  act("table.start_round", {});
}

function wire(showScreen) {
  wireFlow(showScreen);
  $("open-display").addEventListener("click", () => showScreen("display"));
  $("open-rules").addEventListener("click", () => showScreen("rules"));
  // In simulation device.hit makes a real edge on the mock pin; on hardware a remote press.
  $("hit").addEventListener("click", () => act(hasAction("device.hit") ? "device.hit" : "table.press",
    {}, { revision: false }));
  document.querySelectorAll("#screen-table [data-act]").forEach((b) => {
    b.addEventListener("click", () => act(b.dataset.act, { player: chosenPlayer() }));
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
  else act("table.play", payload);
}

function render() {
  const tb = table();
  renderFlow();
  // Only what the state allows: no play controls once the round or the game is over.
  $("play").hidden = Boolean(tb.round_over) || gameOver();
  $("table-undo").hidden = gameOver();
  if (tb.round_over || gameOver()) $("fired-banner").hidden = true;
  renderActor($("actor-name"), $("actor-what"));
  $("hit-who").textContent = actor().player || "";
  $("active").textContent = tb.active || "—";
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
    if (o.until === "colour") text = t("owes_until_colour", { player: o.player,
      colour: t("colour_" + o.colour) });
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
  $("round-info").textContent = tb.round_over
    ? (tb.winner ? t("round_won_by", { player: tb.winner }) : t("round_over"))
    : t("round_number", { round: tb.round ?? 0 });
  const happened = store.happened;
  if (recent(happened) && happened.pressed && local.lastRevision !== happened.revision) {
    local.lastRevision = happened.revision;
    showFiring(happened);
  }
  renderChips(tb);
  renderColours();
  renderCardButtons();
  renderAsks(tb);
  renderRoundLog();
  if (local.banner && !$("fired-banner").hidden) $("fired-banner").textContent = firingText(local.banner);
  // No press while the launcher cannot fire (empty or jammed): reload first.
  $("hit").disabled = Boolean(store.session && !store.session.remote_press
    && device().simulated === false) || Boolean(tb.needs_reload || tb.jam);
  $("table-undo").disabled = !tb.can_undo;
  // Once a round is over, the round-over panel leads to the next one (when there is a score game).
  $("start-round").hidden = gameOver() || (Boolean(tb.round_over) && Boolean(score().game));
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
    const chosen = local.chosen ? local.chosen === p.name : tb.active === p.name;
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
    if (p.uno) chip.append(el("span", { class: "badge" }, "UNO"));
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
        act("table.play", { ...payload, target: p });
      } }, p));
  });
  $("target-picker").hidden = false;
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
  act("table.play", payload);
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
