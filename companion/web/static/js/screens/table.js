// Table screen: whose turn, owed presses, magazine, the HIT button and the cards played.

import { $, el, replay } from "../dom.js";
import {
  act, device, hasAction, players, score, settings, store, t, table, tn,
} from "../store.js";
import { paint } from "../components/colours.js";
import {
  actor, gameOver, renderActor, renderFlow, roundOverMarkup, wireFlow,
} from "../components/flow.js";
import { animateFire } from "./device.js";

const COLOURS = ["red", "yellow", "green", "blue"];
// Card buttons in the order they are found on the table; +2 and the UNO Attack cards show only
// when the rules put them in the deck.
const CARD_BUTTONS = ["reverse", "skip", "hit2", "discard_all", "coup_extreme", "wild", "draw4",
  "draw2", "wild_all_hit", "wild_hit_fire"];

const local = { chosen: null, colour: "red", lastRevision: -1, bannerTimer: 0 };

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
</div>
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
</div>`;

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
  COLOURS.forEach((c) => {
    $("colour-row").append(el("button", {
      type: "button", role: "radio", class: "colour " + c, "data-colour": c,
      onclick: () => { local.colour = c; renderColours(); },
    }));
  });
  for (let v = 0; v <= 9; v++) {
    $("digits").append(el("button", { type: "button", class: "digit", "data-value": String(v),
      onclick: () => act("table.play", { card: "number", value: v, colour: local.colour }) },
    String(v)));
  }
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
    const text = o.until_fire ? t("owes_until_fire", { player: o.player })
      : t("owes", { player: o.player, presses: o.presses });
    owed.append(el("li", { class: "owe" }, text + " — " + t("reason_" + o.reason)));
  });
  $("magazine").textContent = t("cards_count", { count: tb.magazine ?? 0 });
  $("magazine-meter").value = tb.magazine ?? 0;
  $("magazine-low").hidden = !(tb.magazine_low || tb.needs_reload);
  $("round-info").textContent = tb.round_over
    ? (tb.winner ? t("round_won_by", { player: tb.winner }) : t("round_over"))
    : t("round_number", { round: tb.round ?? 0 });
  const happened = store.happened;
  if (happened && happened.pressed && local.lastRevision !== happened.revision) {
    local.lastRevision = happened.revision;
    showFiring(happened);
  }
  renderChips(tb);
  renderColours();
  renderCardButtons();
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
  $("colour-row").querySelectorAll("button").forEach((b) => {
    b.setAttribute("aria-checked", String(b.dataset.colour === local.colour));
    b.textContent = t("colour_" + b.dataset.colour);
  });
}

function renderCardButtons() {
  // Super Joker stays visible (it is on the rule sheet); the box explains if the deck lacks it.
  const rules = settings().rules || {};
  const extra = { draw2: rules.any_deck, wild_all_hit: rules.wild_all_hit,
    wild_hit_fire: rules.hit_fire };
  $("digits").querySelector('[data-value="0"]').hidden = !rules.any_deck;  // Extrême has no 0
  const cards = $("cards");
  cards.textContent = "";
  CARD_BUTTONS.filter((k) => !(k in extra) || extra[k]).forEach((kind) => {
    cards.append(el("button", { type: "button", class: "card-btn " + kind, "data-card": kind,
      onclick: () => playCard(kind) }, t("card_" + kind)));
  });
}

function playCard(kind) {
  if (kind === "coup_extreme") {
    const targets = $("targets");
    targets.textContent = "";
    players().filter((p) => p !== table().active).forEach((p) => {
      targets.append(el("button", { type: "button", class: "chip", "data-target": p,
        onclick: () => {
          $("target-picker").hidden = true;
          act("table.play", { card: "coup_extreme", colour: local.colour, target: p });
        } }, p));
    });
    $("target-picker").hidden = false;
    return;
  }
  const payload = { card: kind, colour: local.colour };
  if (kind === "discard_all") {
    const count = Number(prompt(t("discard_all_count"), "2"));
    if (!Number.isInteger(count) || count < 1) return;
    payload.count = count;
  }
  act("table.play", payload);
}

export default { id: "table", tab: "tab_table", markup, wire, render };
