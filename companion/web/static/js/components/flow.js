// The evening's flow around the table: who must act now, the round-over panel (the winner, the
// other hands starting with the first player after the winner, the round's points and the new
// standings, then the next round with the next dealer) and the game-over panel (the winner, final
// standings, rematch with the next first dealer, or a new game).

import { $, el, toast } from "../dom.js";
import { act, score, standings, store, t, table } from "../store.js";
import { paint } from "./colours.js";

/** Who must act now: {player, presses, untilFire} (presses: 0 when they just play). */
export function actor() {
  const tb = table();
  const owed = (tb.owed || [])[0];
  if (owed) return { player: owed.player, presses: owed.presses || 0, untilFire: Boolean(owed.until_fire) };
  // Round over and nothing owed: nobody plays; the winner is named.
  if (tb.round_over) return { player: tb.winner || null, presses: 0, untilFire: false, won: true };
  return { player: tb.active || null, presses: 0, untilFire: false };
}

/** The big "who acts" block: name in their colour, and what they must do. */
export function renderActor(nameNode, whatNode) {
  const who = actor();
  nameNode.textContent = who.player || "—";
  paint(nameNode, who.player);
  whatNode.textContent = !who.player ? "" : who.won ? t("act_won") : who.untilFire ? t("act_until_fire")
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

/** A score game's name: the default name in this phone's language. */
export function gameName(game) {
  const defaults = (store.session && store.session.default_game_names) || [];
  return defaults.includes(game.name) ? t("default_game_name") : game.name;
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

/** The score game's card kinds: {kind, points, label} in this phone's language. */
export function scoreKinds() {
  const sc = score();
  const kinds = (sc.game && sc.game.ruleset && sc.game.ruleset.kinds) || [];
  return kinds.filter((k) => k.count !== 0).map((k) => ({
    kind: k.key, points: k.value ?? 0, label: k["label_" + store.lang] || k.key,
  }));
}

/** The points of a hand given as card counts ({kind: n}). */
export function countedPoints(counts) {
  const kinds = scoreKinds();
  return Object.entries(counts || {}).reduce((sum, [kind, n]) => {
    const k = kinds.find((x) => x.kind === kind);
    return sum + (k ? k.points : 0) * n;
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
    <div id="hands-entry" class="hands"></div>
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
  if (wanted) renderHandsForm(tb.winner);
  else renderResult();
}

// The hands still held, each entered as points or by tapping its cards (the score game's kinds):
// `counted[player]` holds the cards tapped, shown as their points in the player's field.
const counted = {};

function renderHandsForm(winner) {
  const box = $("hands-entry");
  const names = othersFrom(winner);
  if (box.dataset.for === winner + "|" + names.join("|") + store.lang) return;  // keep the typing
  box.dataset.for = winner + "|" + names.join("|") + store.lang;
  box.textContent = "";
  Object.keys(counted).forEach((p) => { delete counted[p]; });
  names.forEach((p, i) => {
    const row = el("div", { class: "hand-row" });
    const name = el("span", { class: "name" }, p);
    paint(name, p);
    const input = el("input", { type: "number", inputmode: "numeric", min: "0", max: "10000",
      "data-hand": p, "aria-label": t("hand_points_of", { player: p }),
      oninput: () => { delete counted[p]; pad.hidden = true; } });
    const pad = el("div", { class: "kind-pad cards", "data-cards-of": p, hidden: "" });
    const toggle = el("button", { type: "button", class: "small secondary", "data-count": p,
      "aria-label": t("count_cards_of", { player: p }), "aria-expanded": "false",
      onclick: () => {
        pad.hidden = !pad.hidden;
        toggle.setAttribute("aria-expanded", String(!pad.hidden));
        if (!pad.hidden) drawPad(pad, p, input);
      } }, t("by_cards"));
    row.append(name, input, toggle);
    box.append(row, pad);
    if (i === 0) setTimeout(() => input.focus({ preventScroll: true }), 0);
  });
}

/** One hand's card pad: each tap adds a card of that kind; "−" takes the last one back. */
function drawPad(pad, player, input) {
  pad.textContent = "";
  const counts = counted[player] || {};
  const show = () => {
    input.value = String(countedPoints(counts));
    drawPad(pad, player, input);
  };
  scoreKinds().forEach((k) => {
    const n = counts[k.kind] || 0;
    const b = el("button", { type: "button", class: "kind", "data-kind": k.kind,
      "aria-label": k.label + " (" + k.points + ")" + (n ? " ×" + n : ""),
      onclick: () => { counts[k.kind] = n + 1; counted[player] = counts; show(); } });
    b.append(el("span", { class: "label" }, k.label),
      el("span", { class: "count" }, n ? "×" + n : ""));
    pad.append(b);
  });
  pad.append(el("button", { type: "button", class: "kind secondary", "data-clear": player,
    onclick: () => { Object.keys(counts).forEach((k) => { delete counts[k]; }); show(); } },
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
  const hands = { [tb.winner]: { points: 0 } };
  let missing = false;
  $("hands-entry").querySelectorAll("input[data-hand]").forEach((input) => {
    const player = input.dataset.hand;
    if (counted[player]) {
      hands[player] = { cards: counted[player] };  // the cards themselves: the box counts them
      return;
    }
    if (input.value === "") missing = true;
    hands[player] = { points: Math.max(0, Math.floor(Number(input.value) || 0)) };
  });
  if (missing) { toast(t("hands_missing")); return; }
  const ok = await act("score.record_round", { hands, winner: tb.winner, revision: score().revision },
    { revision: false });
  if (ok) {
    savedFor = tableRound(tb);
    $("hands-entry").dataset.for = "";
    renderFlow();
  }
}

/** Same players and rules again; the first deal passes to the next player. */
async function rematch() {
  const game = score().game;
  const players = game.players;
  const next = players[(players.indexOf(game.first_dealer) + 1) % players.length];
  if (!(await act("table.setup", { players, dealer: next }))) return;
  await act("score.new_game", { name: game.name, players, first_dealer: next,
    ruleset: game.ruleset.key, mode: game.mode, target: game.target,
    teams: (game.teams || []).length ? "across" : "none" }, { revision: false });
}

export function wireFlow(showScreen) {
  $("save-hands").addEventListener("click", saveHands);
  $("next-round").addEventListener("click", () => act("table.start_round",
    { dealer: standings().dealer || undefined }));
  $("rematch").addEventListener("click", rematch);
  $("new-game-flow").addEventListener("click", () => showScreen("setup"));
}
