// The evening's flow around the table: who must act now, the round-over panel (the winner, the
// other hands starting with the first player after the winner, the round's points and the new
// standings, then the next round with the next dealer) and the game-over panel (the winner, final
// standings, rematch with the next first dealer, or a new game).

import { $, el, fill, toast } from "../dom.js";
import { act, count, score, standings, store, t, table } from "../store.js";
import { me, setMe } from "./me.js";
import { paint } from "./colours.js";

/** Who must act now: {player, presses, untilFire} (presses: 0 when they just play). */
export function actor() {
  const tb = table();
  const owed = (tb.owed || [])[0];
  if (owed) return { player: owed.player, presses: owed.presses || 0, untilFire: Boolean(owed.until_fire) };
  // Round over and nothing owed: nobody plays; the winner is named.
  if (tb.round_over) return { player: tb.winner || null, presses: 0, untilFire: false, won: true };
  // The box counts a hand at 0: that player has finished, the round's end is one tap away.
  if (tb.round_may_be_over) return { player: tb.round_may_be_over, presses: 0, untilFire: false, out: true };
  return { player: tb.active || null, presses: 0, untilFire: false };
}

/** The big "who acts" block: name in their colour, and what they must do. */
export function renderActor(nameNode, whatNode) {
  const who = actor();
  nameNode.textContent = who.player || "—";
  paint(nameNode, who.player);
  whatNode.textContent = !who.player ? "" : who.won ? t("act_won") : who.out ? t("act_went_out")
    : who.untilFire ? t("act_until_fire")
    : who.presses ? t("act_presses", { presses: who.presses }) : t("act_play");
}

/** A round is under way: dealt and played in (a setup or a redeal would end it). */
export function roundInProgress() {
  const tb = table();
  if (tb.round_over || !(tb.players || []).length) return false;
  const played = tb.last_card || (tb.presses_since_fire ?? 0) > 0 || (tb.owed || []).length
    || (tb.magazine ?? 0) < (tb.magazine_full ?? 0) || (tb.round ?? 1) > 1;
  return Boolean(played);
}

/** A score game's name: the one given on the Score screen, else its own (the default name in
 * this phone's language). */
export function gameName(game) {
  const given = ((store.state && store.state.games_kept) || {}).names || {};
  if (game.id && given[game.id]) return given[game.id];
  const defaults = (store.session && store.session.default_game_names) || [];
  return defaults.includes(game.name) ? t("default_game_name") : game.name;
}

/** A new game's name that tells it apart: its players, the day and the time. */
export function autoGameName(players) {
  const now = new Date();
  const day = new Intl.DateTimeFormat(store.lang, { day: "numeric", month: "short" }).format(now);
  const time = new Intl.DateTimeFormat(store.lang, { hour: "2-digit", minute: "2-digit" }).format(now);
  return t("game_auto_name", { players, date: day + " " + time }).slice(0, 80);
}

/** What a new game sets aside, in words ("« Soirée » (3 manches, Zoé en tête)"), or "". */
export function setAside() {
  const game = score().game;
  if (!game) return "";
  const rounds = score().history_count ?? (score().history || []).length;
  const leader = ((standings().rows || [])[0] || {}).party;
  if (!rounds) return "";  // nothing played in it yet: nothing to lose
  return leader ? t("set_aside_leader", { name: gameName(game), rounds, leader })
    : t("set_aside", { name: gameName(game), rounds });
}

/** After a new game (or an import) opened: Undo opens the game before again and deletes the
 * new one from the list. */
export function offerUndoNewGame(message, before) {
  const made = score().game && score().game.id;
  if (!before || !made || made === before) { toast(message, "ok"); return; }
  toast(message, "ok", { label: t("undo"), run: async () => {
    if (await act("score.open_game", { game: before }, { revision: false })) {
      await act("score.delete_game", { game: made }, { revision: false });
    }
  } });
}

/** The score game is over (someone passed the target, or one player is left in a Défi). */
export const gameOver = () => Boolean(standings().finished);

/** The table's round is over and its hands are not in the score sheet yet. */
export function handsWanted() {
  const tb = table();
  if (!tb.round_over || !score().game || gameOver()) return false;
  return !roundRecorded();
}

// The score sheet's last round is this table round: same winner, and same dealer (or saved from
// this phone for this table round, should the table and the score sheet disagree on the dealer).
let savedFor = null;
const tableRound = (tb) => tb.round + "|" + tb.winner + "|" + tb.dealer;

export function roundRecorded() {
  const tb = table();
  const rounds = score().history || [];
  const last = rounds[rounds.length - 1];
  return Boolean(last && last.winner === tb.winner
    && (last.dealer === tb.dealer || savedFor === tableRound(tb)));
}

/** The ruleset the pads count a round's hands with: the deck in the players' hands (the table's,
 * at every moment: changed mid-evening, a rematch, a game opened or imported), or the score game's
 * own when it counts that deck or is a house ruleset. */
export function padRuleset() {
  const own = (score().game || {}).ruleset || null;
  const decks = (store.cards && store.cards.deck_rulesets) || {};
  const inHands = decks[table().counted_deck];
  if (!own || !inHands || own.key === inHands.key || !(own.key in decks)) return own;
  return inHands;
}

/** A hand counted on the pads as the score sheet takes it: its cards when the pads count with
 * the game's own ruleset, else its points (the game's ruleset does not know the deck's cards). */
export function sheetHand(hand, ruleset = padRuleset()) {
  const own = (score().game || {}).ruleset || null;
  if ("cards" in hand && own && ruleset && own.key === ruleset.key) return { cards: hand.cards };
  return { points: "cards" in hand ? countedPoints(hand.cards, ruleset) : hand.points };
}

/** The side a round's hands count on: the side in play of a two-sided deck (UNO Flip, 000
 * §XI.G), else "" (every kind). */
export function handSide(ruleset = padRuleset()) {
  const sides = (ruleset && ruleset.sides) || [];
  return sides.length > 1 && sides.includes(table().side) ? table().side : "";
}

/** The card kinds of `ruleset` (by default the pads') on `side` (by default the side in play):
 * {kind, points, label} in this phone's language. */
export function scoreKinds(ruleset = padRuleset(), side = handSide(ruleset)) {
  const kinds = (ruleset && ruleset.kinds) || [];
  return kinds.filter((k) => k.count !== 0 && (!side || (k.side || "") === side)).map((k) => ({
    kind: k.key, points: k.value ?? 0, label: k["label_" + store.lang] || k.key,
  }));
}

/** The points of a hand given as card counts ({kind: n}). */
export function countedPoints(counts, ruleset = padRuleset()) {
  const kinds = (ruleset && ruleset.kinds) || [];
  return Object.entries(counts || {}).reduce((sum, [kind, n]) => {
    const k = kinds.find((x) => x.key === kind);
    return sum + (k ? k.value ?? 0 : 0) * n;
  }, 0);
}

/** The other players in seat order, starting with the one after the winner. */
export function othersFrom(winner) {
  const names = (score().game && score().game.players) || [];
  const at = names.indexOf(winner);
  return names.slice(at + 1).concat(names.slice(0, Math.max(at, 0))).filter((p) => p !== winner);
}

export const roundOverMarkup = `
<section id="round-over" class="card flow" hidden aria-labelledby="round-winner">
  <h2 id="round-winner" class="winner"></h2>
  <div id="hands-form">
    <p data-i18n="hands_prompt"></p>
    <label class="me-pick"><span data-i18n="me_label"></span> <select id="me-count" class="me-select"></select></label>
    <div id="hands-entry" class="hands"></div>
    <p id="count-waiting" class="muted" aria-live="polite"></p>
    <p id="count-total" class="count-total"></p>
    <h3 class="sr" data-i18n="standings_after"></h3>
    <ol id="count-standings" class="standings" data-i18n-label="standings_after"></ol>
    <button type="button" id="save-hands" class="primary" data-i18n="save_round"></button>
  </div>
  <div id="round-result" hidden>
    <h3 data-i18n="round_points"></h3>
    <ul id="round-points" class="points-list"></ul>
    <h3 data-i18n="standings"></h3>
    <ol id="round-standings" class="standings"></ol>
    <button type="button" id="next-round" class="primary"></button>
  </div>
</section>
<section id="game-over" class="card flow" hidden aria-labelledby="game-winner">
  <h2 id="game-winner" class="winner"></h2>
  <ol id="final-standings" class="standings"></ol>
  <div class="cards">
    <button type="button" id="rematch" class="primary" data-i18n="rematch"></button>
    <button type="button" id="new-game-flow" class="secondary" data-i18n="new_game"></button>
  </div>
</section>`;

export function standingsList(list) {
  list.textContent = "";
  (standings().rows || []).forEach((row) => {
    const li = el("li", { "data-party": row.party });
    const name = el("span", { class: "name" }, row.party);
    paint(name, row.party);
    li.append(name, el("span", { class: "total" }, String(row.total)));
    list.append(li);
  });
}

export function renderFlow() {
  const tb = table();
  const over = gameOver();
  const roundOver = Boolean(tb.round_over) && !over;
  $("round-over").hidden = !roundOver;
  $("game-over").hidden = !over;
  if (over) {
    const winners = standings().winners || [];
    $("game-winner").textContent = t("game_won_by", { player: winners.join(" & ") });
    paint($("game-winner"), winners[0]);
    standingsList($("final-standings"));
    return;
  }
  if (!roundOver) return;
  $("round-winner").textContent = tb.winner ? t("round_won_by", { player: tb.winner }) : t("round_over");
  paint($("round-winner"), tb.winner);
  const wanted = handsWanted();
  $("hands-form").hidden = !wanted || !score().game;
  $("round-result").hidden = wanted || !score().game;
  // The status above already names the winner in large: the panel's title is for screen readers
  // while the hands are counted.
  $("round-winner").classList.toggle("sr", wanted);
  if (wanted) {
    // Asked here only while this phone does not know whose it is (the Set-up screen changes it).
    $("me-count").closest("label").hidden = Boolean(me()) && document.activeElement !== $("me-count");
    renderMe($("me-count"));
    renderHandsForm(tb.winner);
  }
  else renderResult();
}

// The round's count is one draft on the box (state `count`), live on every phone: each player
// counts their own hand on their own phone, by points or by tapping its cards; every phone sees
// who is still counting, the total and the standings it would make. A phone's changes go to the
// box one after another; what another phone counted shows here as soon as the box has it.
const counting = { key: "", counts: {}, timers: {}, busy: 0, queue: Promise.resolve(), opened: "" };

/** The table round the draft is for. */
function countKey() {
  const tb = table();
  return { game: (score().game || {}).id || "", round: tb.round ?? 0, winner: tb.winner || "" };
}

/** The hands counted so far for this round ({player: {points}|{cards}}), from the box. */
export function draftHands() {
  const draft = count();
  const key = countKey();
  const same = draft.game === key.game && draft.round === key.round && draft.winner === key.winner;
  return same ? draft.hands || {} : {};
}

/** A hand's points: typed, or counted from its cards. */
export function handValue(hand) {
  if (!hand) return null;
  if ("points" in hand) return hand.points;
  if ("cards" in hand) return countedPoints(hand.cards);
  return null;
}

/** Send one hand to the box ({points}, {cards} or {} for "not counted"), after this phone's
 * earlier changes. */
function sendHand(player, hand) {
  counting.busy += 1;
  counting.queue = counting.queue.then(() => act("count.hand",
    Object.assign(countKey(), { player }, hand), { revision: false }))
    .finally(() => { counting.busy -= 1; if (!counting.busy) renderFlow(); });
  return counting.queue;
}

function typed(player, input, now) {
  clearTimeout(counting.timers[player]);
  delete counting.counts[player];
  const send = () => {
    delete counting.timers[player];
    counting.busy -= 1;
    const value = input.value.trim();
    sendHand(player, value === "" ? {}
      : { points: Math.max(0, Math.min(10000, Math.floor(Number(value) || 0))) });
  };
  if (!(player in counting.timers)) counting.busy += 1;
  counting.timers[player] = now ? 0 : setTimeout(send, 600);
  if (now) send();
}

/** Send what is still being typed now (before a save). */
async function flushTyping() {
  document.querySelectorAll("#hands-entry input[data-hand]").forEach((input) => {
    const player = input.dataset.hand;
    if (player in counting.timers) typed(player, input, true);
  });
  await counting.queue;
}

function renderHandsForm(winner) {
  const box = $("hands-entry");
  const names = othersFrom(winner);
  const mine = me();
  // This phone's player first: their own hand is the one to count here.
  const order = names.includes(mine) ? [mine, ...names.filter((p) => p !== mine)] : names;
  const key = JSON.stringify([countKey(), order, store.lang]);
  if (box.dataset.for !== key) {
    // Drawn again (a player renamed, another language): the pads open stay open, this phone's
    // own too under its new name.
    const open = [...box.querySelectorAll("[data-cards-of]")].filter((pad) => !pad.hidden)
      .map((pad) => pad.dataset.cardsOf);
    if (open.includes(box.dataset.mine)) open.push(mine);
    box.dataset.for = key;
    box.dataset.mine = mine;
    box.textContent = "";
    counting.counts = {};
    order.forEach((p) => {
      const row = el("div", { class: "hand-row" + (p === mine ? " mine" : ""), "data-row": p });
      const name = el("span", { class: "name" }, p);
      paint(name, p);
      const status = el("span", { class: "hand-status", "data-status": p });
      const input = el("input", { type: "number", inputmode: "numeric", min: "0", max: "10000",
        "data-hand": p, "aria-label": t("hand_points_of", { player: p }),
        oninput: () => { pad.hidden = true; toggle.setAttribute("aria-expanded", "false"); typed(p, input); },
        onchange: () => { if (p in counting.timers) typed(p, input, true); } });
      const pad = el("div", { class: "kind-pad cards", "data-cards-of": p, hidden: "" });
      const toggle = el("button", { type: "button", class: "small secondary", "data-count": p,
        "aria-label": t("count_cards_of", { player: p }), "aria-expanded": "false",
        onclick: () => openPad(p, pad.hidden) }, t("by_cards"));
      row.append(name, status, input, toggle);
      box.append(row, pad);
    });
    open.filter((p) => order.includes(p)).forEach((p) => openPad(p, true));
  }
  // This phone's own hand opens by its cards, once per round.
  if (mine && order.includes(mine) && counting.opened !== key) {
    counting.opened = key;
    if (!draftHands()[mine]) openPad(mine, true);
  }
  updateHands(order);
}

function openPad(player, open) {
  const pad = document.querySelector('#hands-entry [data-cards-of="' + CSS.escape(player) + '"]');
  const toggle = document.querySelector('#hands-entry [data-count="' + CSS.escape(player) + '"]');
  if (!pad) return;
  pad.hidden = !open;
  toggle.setAttribute("aria-expanded", String(open));
  if (open) {
    const hand = draftHands()[player];
    counting.counts[player] = Object.assign({}, (hand && hand.cards) || {});
    drawPad(pad, player);
  }
}

// Every change: the values counted on other phones, who is still counting, the total and the
// standings it makes. A field being typed in, or a pad with taps still on their way, stays as is.
function updateHands(order) {
  const hands = draftHands();
  const settled = !counting.busy;
  const waiting = [];
  let total = 0;
  order.forEach((p) => {
    const hand = hands[p];
    const value = handValue(hand);
    const input = document.querySelector('#hands-entry [data-hand="' + CSS.escape(p) + '"]');
    if (settled && document.activeElement !== input) input.value = value === null ? "" : String(value);
    const pad = document.querySelector('#hands-entry [data-cards-of="' + CSS.escape(p) + '"]');
    if (settled && !pad.hidden) {
      counting.counts[p] = Object.assign({}, (hand && hand.cards) || {});
      drawPad(pad, p);
    }
    const status = document.querySelector('#hands-entry [data-status="' + CSS.escape(p) + '"]');
    status.textContent = value === null ? t("hand_counting") : "✓";
    status.classList.toggle("done", value !== null);
    if (value === null) waiting.push(p); else total += value;
  });
  $("count-waiting").textContent = waiting.length
    ? t("count_waiting", { players: waiting }) : t("count_done");
  $("count-total").textContent = t("count_total", { points: total });
  previewStandings(hands);
  $("save-hands").disabled = waiting.length > 0 && settled;
}

// The standings the round would make: the winner's side takes every hand (winner_takes), or each
// side keeps its own (lowest_wins, défi).
function previewStandings(hands) {
  const tb = table();
  const mode = (score().game || {}).mode || "winner_takes";
  const sum = (members) => members.reduce((s, p) => s + (handValue(hands[p]) || 0), 0);
  const everyone = Object.keys(hands).reduce((s, p) => s + (handValue(hands[p]) || 0), 0);
  const rows = (standings().rows || []).map((row) => {
    const members = row.members || [row.party];
    const gain = mode === "winner_takes" ? (members.includes(tb.winner) ? everyone : 0) : sum(members);
    return { party: row.party, total: row.total + gain, gain };
  });
  rows.sort((a, b) => (mode === "winner_takes" ? b.total - a.total : a.total - b.total));
  const list = $("count-standings");
  list.textContent = "";
  rows.forEach((row) => {
    const name = el("span", { class: "name" }, row.party);
    paint(name, row.party);
    list.append(el("li", {}, ""));
    list.lastChild.append(name, el("span", { class: "total" },
      String(row.total) + (row.gain ? " (+" + row.gain + ")" : "")));
  });
}

/** One hand's card pad: each tap adds a card of that kind; "Effacer" empties the hand. */
function drawPad(pad, player) {
  pad.textContent = "";
  const counts = counting.counts[player] || (counting.counts[player] = {});
  const changed = () => {
    const input = document.querySelector('#hands-entry [data-hand="' + CSS.escape(player) + '"]');
    input.value = String(countedPoints(counts));
    drawPad(pad, player);
    sendHand(player, { cards: Object.assign({}, counts) });
  };
  scoreKinds().forEach((k) => {
    const n = counts[k.kind] || 0;
    const b = el("button", { type: "button", class: "kind", "data-kind": k.kind,
      "aria-label": k.label + " (" + k.points + ")" + (n ? " ×" + n : ""),
      onclick: () => { counts[k.kind] = n + 1; changed(); } });
    b.append(el("span", { class: "label" }, k.label),
      el("span", { class: "count" }, n ? "×" + n : ""));
    pad.append(b);
  });
  pad.append(el("button", { type: "button", class: "kind secondary", "data-clear": player,
    onclick: () => { Object.keys(counts).forEach((k) => { delete counts[k]; }); changed(); } },
  t("clear")));
}

function renderResult() {
  const rounds = score().history || [];
  const last = rounds[rounds.length - 1] || {};
  const list = $("round-points");
  list.textContent = "";
  const credited = Object.entries(last.credited || {});
  const scored = credited.filter(([, points]) => points !== 0);
  (scored.length ? scored : credited).forEach(([party, points]) => {
    list.append(el("li", {}, t("scored", { player: party, points })));
  });
  standingsList($("round-standings"));
  $("next-round").textContent = t("next_round", { dealer: standings().dealer || "" });
}

async function saveHands() {
  const tb = table();
  $("save-hands").disabled = true;
  await flushTyping();
  const counted = draftHands();
  const hands = { [tb.winner]: { points: 0 } };
  const missing = othersFrom(tb.winner).filter((p) => handValue(counted[p]) === null);
  if (missing.length) {
    toast(t("count_waiting", { players: missing }));
    renderFlow();
    return;
  }
  othersFrom(tb.winner).forEach((p) => {
    // The cards themselves when they were counted by cards: the box counts their points.
    hands[p] = sheetHand(counted[p]);
  });
  const payload = { hands, winner: tb.winner, revision: score().revision };
  const side = handSide(score().game.ruleset);  // UNO Flip: the side the round ended on
  if (side) payload.side = side;
  const ok = await act("score.record_round", payload, { revision: false });
  if (ok) {
    savedFor = tableRound(tb);
    $("hands-entry").dataset.for = "";
  }
  renderFlow();
}

/** Same players and rules again, counted with the deck on the table; the first deal passes to
 * the next player. */
async function rematch() {
  const game = score().game;
  const players = game.players;
  const next = players[(players.indexOf(game.first_dealer) + 1) % players.length];
  const ruleset = (padRuleset() || game.ruleset).key;
  if (!(await act("table.setup", { players, dealer: next }))) return;
  await act("score.new_game", { name: autoGameName(players), players, first_dealer: next,
    ruleset, mode: game.mode, target: game.target,
    teams: (game.teams || []).length ? "across" : "none" }, { revision: false });
}

/** "Ce téléphone est à": a select of the table's players (and nobody, for a shared phone). */
export function renderMe(select) {
  if (document.activeElement === select) return;
  const names = (table().players || []).map((p) => p.name);
  fill(select, ["", ...names], names.includes(me()) ? me() : "", (v) => v || t("me_nobody"));
}

export function wireFlow(showScreen) {
  $("save-hands").addEventListener("click", saveHands);
  $("me-count").addEventListener("change", (e) => { setMe(e.target.value); renderFlow(); });
  const nextRound = () => ({ dealer: standings().dealer || undefined });
  // A change made just before the tap (a hand counted late on another phone) leaves the tap's
  // meaning as it was: sent again while the round is still over, dropped once it has started.
  $("next-round").addEventListener("click", () => act("table.start_round", nextRound(),
    { again: () => (table().phase === "over" ? nextRound() : null) }));
  $("rematch").addEventListener("click", rematch);
  $("new-game-flow").addEventListener("click", () => showScreen("setup"));
}
