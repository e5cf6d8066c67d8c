// Set-up screen: players and seat order (drag or ↑ ↓), dealer, ruleset, counting, target, teams,
// this phone's language and the ejection profile.

import { $, el, fill, toast } from "../dom.js";
import { act, hasAction, label, score, settings, store, t, table } from "../store.js";
import { autoGameName, gameName, padRuleset, renderMe, roundInProgress } from "../components/flow.js";
import { setMe } from "../components/me.js";
import { colourOf, freeColour, PALETTE_SIZE } from "../components/colours.js";

// The seats being edited: while `dirty`, live updates do not overwrite them. `colours`: the
// palette index chosen for each name.
const seats = { names: [], dirty: false, colours: {} };
const GAME_FIELDS = ["ruleset", "counting", "target", "teams"];

const markup = `
<h2 data-i18n="setup"></h2>
<details class="card share" id="share">
  <summary data-i18n="share"></summary>
  <p id="urls"></p>
  <img id="qr" src="/api/qr.svg" alt="" width="180" height="180">
</details>
<p class="muted" data-i18n="drag_hint"></p>
<ol id="seat-list" class="seats"></ol>
<div class="row">
  <input id="new-player" maxlength="40" data-i18n-label="player_name" data-i18n-placeholder="player_name">
  <button type="button" id="add-player" data-i18n="add_player"></button>
</div>
<label><span data-i18n="dealer"></span> <select id="dealer"></select></label>
<label><span data-i18n="ruleset"></span> <select id="ruleset"></select></label>
<label><span data-i18n="counting"></span> <select id="counting"></select></label>
<label><span data-i18n="target"></span> <input id="target" type="number" inputmode="numeric" min="1" max="100000"></label>
<label class="switch"><input type="checkbox" id="teams"> <span data-i18n="teams"></span></label>
<label><span data-i18n="phone_language"></span> <select id="language" class="language"></select></label>
<label><span data-i18n="me_label"></span> <select id="me-setup" class="me-select"></select></label>
<label><span data-i18n="profile"></span> <select id="profile"></select></label>
<button type="button" id="apply-setup" class="primary" data-i18n="apply_setup"></button>`;

/** The game settings chosen on this screen, as score.new_game takes them. */
export function gameSettings() {
  // A phone that never opened Set-up has empty fields: they take the same defaults first.
  if (!$("ruleset").value || !$("counting").value) fillGameFields();
  return { ruleset: $("ruleset").value, mode: $("counting").value,
    target: Math.max(1, Math.floor(Number($("target").value) || 500)),
    teams: $("teams").checked ? "across" : "none" };
}

// The other phones join from here: the page's address and its QR code, first on the screen.
function renderShare() {
  const urls = $("urls");
  const wanted = ((store.session || {}).urls || []).join(" ");
  if (urls.dataset.set === wanted) return;
  urls.dataset.set = wanted;
  urls.textContent = "";
  (store.session.urls || []).forEach((u) => { urls.append(el("a", { href: u }, u), el("br")); });
}

function render() {
  renderShare();
  renderMe($("me-setup"));
  if (seats.dirty) return;
  seats.names = (table().players || []).map((p) => p.name);
  seats.colours = Object.fromEntries(seats.names.map((n) => [n, colourOf(n)]));
  drawSeats();
  fillGameFields();
}

// The new game's fields: the deck on the table's ruleset, the open game's mode, target and teams,
// unless this phone changed them.
function fillGameFields() {
  const st = settings();
  const game = score().game || {};
  const touched = (id) => Boolean($(id).dataset.touched);
  // Ruleset names in this phone's language (the score's list has both).
  const rulesets = score().rulesets || (store.session && store.session.rulesets) || [];
  const names = Object.fromEntries(rulesets.map((r) => [r.key,
    (store.lang === "en" ? r.name_en : r.name_fr) || r.name || r.key]));
  // Counted with the deck on the table (a house ruleset stays the game's own).
  const ruleset = (padRuleset() || {}).key || table().counted_deck || "extreme";
  fill($("ruleset"), Object.keys(names), touched("ruleset") ? $("ruleset").value : ruleset,
    (v) => names[v]);
  fill($("counting"), score().modes || ["winner_takes"],
    touched("counting") ? $("counting").value : game.mode, (v) => label("counting_", v));
  fill($("profile"), st.profiles || [st.profile], st.profile, (v) => label("profile_", v));
  if (!touched("target")) $("target").value = game.target ?? 500;
  if (!touched("teams")) $("teams").checked = Boolean((game.teams || []).length);
}

function drawSeats() {
  const list = $("seat-list");
  list.textContent = "";
  seats.names.forEach((name, i) => {
    const li = el("li", { class: "seat", "data-seat": name });
    const handle = el("span", { class: "handle", "aria-hidden": "true" }, "⠿");
    handle.addEventListener("pointerdown", (e) => startDrag(e, li, i));
    const button = (text, labelKey, onclick) => el("button", { type: "button",
      class: "small secondary", "aria-label": t(labelKey, { player: name }), onclick }, text);
    const colour = el("select", { class: "colour-pick", "aria-label": t("colour_of", { player: name }),
      "data-colour-of": name });
    const current = seats.colours[name] ?? (i % PALETTE_SIZE);
    for (let c = 0; c < PALETTE_SIZE; c++) {
      const o = el("option", { value: String(c) }, "● " + t("player_colour_" + c));
      if (c === current) o.selected = true;
      colour.append(o);
    }
    colour.classList.add("pc" + current);
    colour.addEventListener("change", () => {
      seats.colours[name] = Number(colour.value);
      seats.dirty = true;
      drawSeats();
    });
    const who = el("span", { class: "name" }, name);
    who.classList.add("pc" + current);
    li.append(handle, who, colour,
      Object.assign(button("✎", "rename_player", () => renameSeat(name)), { className: "small secondary rename" }),
      button("↑", "move_up", () => moveSeat(i, i - 1)),
      button("↓", "move_down", () => moveSeat(i, i + 1)),
      button("✕", "remove_player", () => { seats.names.splice(i, 1); seats.dirty = true; drawSeats(); }));
    list.append(li);
  });
  const dealer = $("dealer");
  fill(dealer, seats.names, seats.dirty && seats.names.includes(dealer.value) ? dealer.value
    : table().dealer);
}

// A new name in place: a seated player keeps seat, hand, scores and colour (players.rename);
// a player not yet seated is renamed on this screen only.
async function renameSeat(name) {
  const wanted = (prompt(t("rename_prompt", { player: name }), name) || "").trim();
  if (!wanted || wanted === name) return;
  const isSeated = () => (table().players || []).some((p) => p.name === name)
    || ((score().game || {}).players || []).includes(name);
  // Changed meanwhile by another phone (or this one's previous change still landing): the
  // same rename is sent again on the table as it is now, while the player is still there.
  const rename = { player: name, name: wanted };
  const again = () => (isSeated() ? rename : null);
  if (isSeated() && !(await act("players.rename", rename, { again }))) return;
  const at = seats.names.indexOf(name);
  if (at >= 0) seats.names[at] = wanted;
  seats.colours[wanted] = seats.colours[name];
  delete seats.colours[name];
  drawSeats();
}

function moveSeat(from, to) {
  if (to < 0 || to >= seats.names.length || from === to) return;
  const [name] = seats.names.splice(from, 1);
  seats.names.splice(to, 0, name);
  seats.dirty = true;
  drawSeats();
}

// Drag to reorder with pointer events (HTML drag-and-drop does not work on phones).
function startDrag(e, li, index) {
  e.preventDefault();
  const count = seats.names.length;
  const height = li.getBoundingClientRect().height || 48;
  const startY = e.clientY;
  li.classList.add("dragging");
  const move = (ev) => { li.style.transform = "translateY(" + (ev.clientY - startY) + "px)"; };
  const up = (ev) => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    li.classList.remove("dragging");
    li.style.transform = "";
    const shift = Math.round((ev.clientY - startY) / height);
    moveSeat(index, Math.max(0, Math.min(count - 1, index + shift)));
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
}

// What "Set up the table" would change: the seats (a new deal), the score game (a new one).
function planned() {
  const tb = table();
  const dealer = $("dealer").value || undefined;
  const seated = (tb.players || []).map((p) => p.name);
  const reseat = JSON.stringify(seated) !== JSON.stringify(seats.names)
    || (dealer !== undefined && dealer !== tb.dealer);
  const game = score().game;
  const want = gameSettings();
  // The game's own ruleset, or the deck on the table it goes on with, is the same game.
  const counted = [(game && game.ruleset || {}).key, (padRuleset() || {}).key];
  const sameGame = game && JSON.stringify(game.players) === JSON.stringify(seats.names)
    && counted.includes(want.ruleset) && game.mode === want.mode
    && game.target === want.target && ((game.teams || []).length ? "across" : "none") === want.teams;
  const newGame = !sameGame && hasAction("score.new_game");
  // A game scored with another deck puts that deck on the table (the cards in play change).
  const decks = new Set(((store.cards && store.cards.cards) || []).flatMap((c) => c.decks));
  const deck = newGame && decks.has(want.ruleset) && want.ruleset !== table().counted_deck;
  return { reseat, newGame, deck, dealer, want };
}

/** What applying `plan` would end, said in words (empty: nothing is lost). */
export function whatEnds(plan) {
  const ends = [];
  if (plan.reseat && roundInProgress()) ends.push(t("ends_round", { round: table().round }));
  const game = score().game;
  const rounds = score().history_count ?? (score().history || []).length;
  if (plan.newGame && game && rounds) ends.push(t("ends_game", { name: gameName(game), rounds }));
  if (plan.deck && !plan.reseat && roundInProgress()) {
    ends.push(t("ends_deck", { round: table().round }));
  }
  return ends;
}

// Seats and dealer go to the table (only when they changed: the same seats never deal again);
// ruleset, counting, target and teams start a new score game when they differ from the running
// one. What that would end (a round in progress, a game with rounds) is said first and asked,
// and a toast offers to take it back.
async function apply() {
  const plan = planned();
  const ends = whatEnds(plan);
  if (ends.length && !confirm(t("confirm_ends", { what: ends }))) return;
  const before = { game: score().game && score().game.id };
  if (plan.reseat && !(await act("table.setup", { players: seats.names, dealer: plan.dealer }))) {
    return;
  }
  seats.dirty = false;
  const colours = Object.fromEntries(seats.names.map((n, i) => [n, seats.colours[n] ?? (i % PALETTE_SIZE)]));
  if (hasAction("page.colours") && !(await act("page.colours", { colours }, { revision: false }))) return;
  const profile = $("profile").value;
  if (profile && profile !== settings().profile
      && !(await act("settings.update", { profile }, { revision: false }))) return;
  if (plan.newGame) {
    const payload = Object.assign({ name: autoGameName(seats.names), players: seats.names,
      first_dealer: plan.dealer }, plan.want);
    if (!(await act("score.new_game", payload, { revision: false }))) return;
  }
  GAME_FIELDS.forEach((id) => { delete $(id).dataset.touched; });
  if (!ends.length) {
    toast(t("table_ready"), "ok");
    return;
  }
  toast(t("table_ready"), "ok", { label: t("undo"), run: async () => {
    // The table's changes, last first: the new deck, then the new seats.
    for (const done of [plan.deck, plan.reseat]) if (done) await act("table.undo", {});
    if (plan.newGame && before.game) {
      const made = score().game && score().game.id;
      await act("score.open_game", { game: before.game }, { revision: false });
      if (made && made !== before.game) await act("score.delete_game", { game: made }, { revision: false });
    }
  } });
}

function wire() {
  $("me-setup").addEventListener("change", (e) => setMe(e.target.value));
  GAME_FIELDS.forEach((id) => {
    $(id).addEventListener("change", () => { $(id).dataset.touched = "1"; });
  });
  $("add-player").addEventListener("click", () => {
    const name = $("new-player").value.trim();
    if (!name) return;
    // A colour nobody at the table has yet.
    seats.colours[name] = freeColour(seats.names.map((n) => seats.colours[n]));
    seats.names.push(name); seats.dirty = true; $("new-player").value = ""; drawSeats();
  });
  $("apply-setup").addEventListener("click", apply);
}

export default { id: "setup", tab: "tab_setup", markup, wire, render };
