// House rules screen: the deck on the table and every rule the table may change (press counts
// for each penalty, stacking, the 0/7 variants, the Emoji customisable card...). The fields come
// from the box (GET /api/cards); a change is the table.rules action, kept with the table. No tab:
// opened from the Table screen's "House rules" button or the address #rules.

import { $, el, toast } from "../dom.js";
import { act, label, score, store, t, table } from "../store.js";
import { autoGameName, gameName, offerUndoNewGame, roundInProgress } from "../components/flow.js";
import { rules } from "../components/deck.js";

const markup = `
<h2 data-i18n="house_rules"></h2>
<p class="muted" data-i18n="rules_intro"></p>
<form id="house-rules" class="card rules-form"></form>
<button type="button" id="rules-back" class="secondary" data-i18n="back_to_table"></button>`;

function fields() { return (store.cards && store.cards.rules) || []; }

// The score game counts with its ruleset's cards: a game scored with another deck's rules would
// keep the other deck's keys on the round-end pad. Asked: a new game counted with the deck now on
// the table (the game before stays in the list; the message offers Undo). True when started.
async function followDeck(deck) {
  const game = score().game;
  const rulesets = (score().rulesets || []).map((r) => r.key);
  const decks = new Set(((store.cards && store.cards.cards) || []).flatMap((c) => c.decks));
  const counted = game && game.ruleset && game.ruleset.key;
  if (!counted || counted === deck || !decks.has(counted) || !rulesets.includes(deck)) return false;
  const named = (key) => {
    const r = (score().rulesets || []).find((x) => x.key === key) || {};
    return (store.lang === "en" ? r.name_en : r.name_fr) || key;
  };
  if (!confirm(t("confirm_follow_deck", { name: gameName(game), counted: named(counted),
    deck: named(deck) }))) return false;
  const before = game.id;
  const players = game.players;
  const ok = await act("score.new_game", { name: autoGameName(players), players,
    first_dealer: game.first_dealer, ruleset: deck, mode: game.mode, target: game.target,
    teams: (game.teams || []).length ? "across" : "none" }, { revision: false });
  if (ok) offerUndoNewGame(t("new_game_started"), before);
  return ok;
}

function input(field, value) {
  const id = "rule-" + field.name;
  const send = async (v) => {
    // Another deck in the middle of a round changes the cards in play: ask, and offer Undo.
    const midRound = field.name === "deck" && roundInProgress();
    if (midRound && !confirm(t("confirm_deck", { round: table().round }))) {
      drawn = "";
      render();
      return;
    }
    if (!(await act("table.rules", { [field.name]: v }))) return;
    if (field.name === "deck" && await followDeck(v)) return;
    if (midRound) {
      toast(t("deck_changed"), "ok", { label: t("undo"), run: () => act("table.undo", {}) });
    }
  };
  if (field.type === "boolean") {
    return el("input", { id, type: "checkbox", name: field.name, checked: value ? "" : null,
      onchange: (e) => send(e.target.checked) });
  }
  if (field.enum) {
    const select = el("select", { id, name: field.name,
      onchange: (e) => send(e.target.value) });
    field.enum.forEach((v) => {
      const option = el("option", { value: v }, label("rule_" + field.name + "_", v));
      if (v === value) option.selected = true;
      select.append(option);
    });
    return select;
  }
  return el("input", { id, type: "number", name: field.name, value: String(value),
    min: String(field.minimum), max: String(field.maximum), inputmode: "numeric",
    onchange: (e) => {
      const v = Number(e.target.value);
      if (Number.isInteger(v) && v >= field.minimum && v <= field.maximum) send(v);
    } });
}

let drawn = "";  // the rules and language the form shows: redraw only when they change

function render() {
  const form = $("house-rules");
  if (form.contains(document.activeElement) && document.activeElement.type === "number") return;
  const current = rules();
  const key = JSON.stringify(current) + store.lang + fields().length;
  if (key === drawn) return;
  drawn = key;
  form.textContent = "";
  fields().forEach((field) => {
    const row = el("label", { class: "rule", for: "rule-" + field.name });
    row.append(el("span", {}, label("rule_", field.name)), input(field, current[field.name]));
    form.append(row);
  });
}

function wire(show) {
  $("house-rules").addEventListener("submit", (e) => e.preventDefault());
  $("rules-back").addEventListener("click", () => show("table"));
}

export default { id: "rules", tab: null, markup, wire, render };
