// Score screen: new game, round entry by card kinds or raw points, standings, history with edit
// and delete, the chart (an SVG drawn by the box), statistics, CSV and game file export.
//
// The score snapshot: {game: {id, name, players, mode, target, teams, ruleset: {kinds}}, revision,
// standings: {rows: [{party, members, total, rank, eliminated_in}]}, history: the last rounds
// [{number, winner, hands: [{player, hand: {cards}|{points}, points}], credited, totals}],
// history_count (every round), game_stats: {party: {played, costliest}}, can_undo, can_redo}.
// Older rounds are read page by page (GET /api/score/rounds) when asked for: the state stays
// small however long the game.

import { $, el, fill, toast } from "../dom.js";
import { act, players, request, score, standings, store, t, table } from "../store.js";
import {
  autoGameName, countedPoints, gameName, gameOver, offerUndoNewGame, padRuleset, roundRecorded,
  scoreKinds, setAside, sheetHand, standingsList,
} from "../components/flow.js";
import { gameSettings } from "./setup.js";

// The entry being typed: hands by player ({counts} or {points}), the round being edited, the score
// revision the entry started from, the chosen winner; `full`: a new round the game had no room
// for (the next new game takes it).
const entry = { hands: {}, player: null, editing: null, revision: null, winner: null,
  another: false, raw: false, full: false };
// The refusals of a game that holds as much as the box keeps (409, though nothing is stale).
const GAME_FULL = ["scoring.error.game_full", "scoring.error.game_log_full"];

const markup = `
<div id="storage-problem" class="card" role="alert" hidden>
  <p id="storage-text"></p>
  <div class="row" id="storage-backup-row">
    <label><span data-i18n="storage_backup"></span> <select id="storage-backups"></select></label>
    <button type="button" id="storage-restore" class="secondary" data-i18n="storage_restore"></button>
  </div>
</div>
<div id="no-game" class="card" hidden>
  <h2 data-i18n="new_game"></h2>
  <label><span data-i18n="game_name"></span> <input id="game-name" maxlength="80"></label>
  <button type="button" id="new-game" class="primary" data-i18n="new_game"></button>
</div>
<div id="game" hidden>
  <h2 id="game-title"></h2>
  <div id="score-over" class="card flow" hidden>
    <h3 id="score-winner" class="winner"></h3>
  </div>
  <div class="card">
    <h3 data-i18n="standings"></h3>
    <ol id="standings" class="standings"></ol>
  </div>
  <div class="card" id="entry-saved" hidden>
    <p id="entry-saved-text" class="ok-text"></p>
    <button type="button" id="entry-another" class="secondary" data-i18n="enter_another"></button>
  </div>
  <div class="card" id="entry">
    <h3 id="entry-title" data-i18n="enter_round"></h3>
    <div class="chips" id="entry-players" role="tablist"></div>
    <div class="row">
      <label class="switch"><input type="checkbox" id="raw-points"> <span data-i18n="raw_points"></span></label>
      <label class="switch"><input type="checkbox" id="minus-mode"> <span data-i18n="minus_mode"></span></label>
    </div>
    <div id="kind-pad" class="cards"></div>
    <label id="points-label" hidden><span data-i18n="points"></span>
      <input id="points-input" type="number" inputmode="numeric" min="0" max="100000"></label>
    <label><span data-i18n="winner"></span> <select id="winner"></select></label>
    <ul id="entry-summary" class="summary"></ul>
    <div class="cards">
      <button type="button" id="save-round" class="primary" data-i18n="save_round"></button>
      <button type="button" id="cancel-edit" class="secondary" hidden data-i18n="cancel"></button>
      <button type="button" id="clear-entry" class="secondary" data-i18n="clear"></button>
    </div>
  </div>
  <div class="card">
    <h3 data-i18n="chart"></h3>
    <img id="chart" alt="" width="360">
  </div>
  <div class="card">
    <h3 data-i18n="history"></h3>
    <button type="button" id="older-rounds" class="secondary" data-i18n="older_rounds" hidden></button>
    <ol id="history" class="history"></ol>
    <div class="cards">
      <button type="button" id="score-undo" class="secondary" data-i18n="undo"></button>
      <button type="button" id="score-redo" class="secondary" data-i18n="redo"></button>
      <a class="button secondary" id="export" href="/api/export.csv" download data-i18n="export"></a>
      <a class="button secondary" id="export-json" href="/api/export.json" download data-i18n="export_json"></a>
      <button type="button" id="score-announce" class="secondary" data-i18n="announce"></button>
      <label class="button secondary file"><span data-i18n="import"></span>
        <input type="file" id="import-file" accept=".csv,text/csv,.json,application/json"></label>
    </div>
  </div>
  <div class="card">
    <h3 data-i18n="stats"></h3>
    <dl id="stats" class="stats"></dl>
  </div>
  <button type="button" id="new-game-again" class="secondary" data-i18n="new_game"></button>
</div>
<div class="card" id="games-card" hidden>
  <h3 data-i18n="stored_games"></h3>
  <ul id="games" class="games"></ul>
</div>`;

const HAND_CARDS = "cards";  // payload field of a hand given as card counts

const scorePlayers = () => (score().game && score().game.players) || [];
const history = () => score().history || [];
const roundCount = () => score().history_count ?? history().length;
const gameId = () => (score().game && score().game.id) || null;

// Rounds before the state's last ones, read from the box on demand (oldest first), for the game
// and score revision they were read at: after a change they are read again (same count).
const PAGE = 50;
const older = { game: null, revision: null, rounds: [], busy: false };

/** Every round on screen: the older ones read so far, then the state's last ones. */
function shownRounds() {
  const tail = history();
  const first = tail.length ? tail[0].number : Infinity;
  const kept = older.game === gameId() ? older.rounds.filter((r) => r.number < first) : [];
  return kept.concat(tail);
}

/** Read `extra` more rounds before those shown (0: the same ones again, after a change). */
async function loadOlder(extra) {
  if (older.busy) return;
  const game = gameId();
  const revision = score().revision;
  const wanted = (older.game === game ? older.rounds.length : 0) + extra;
  let before = (history()[0] || {}).number || 1;
  let rounds = [];
  let current = true;  // false: the game changed on the box meanwhile (its state comes next)
  older.busy = true;
  try {
    while (rounds.length < wanted && before > 1) {
      const limit = Math.min(200, wanted - rounds.length);
      const r = await request("/api/score/rounds?before=" + before + "&limit=" + limit,
        { headers: { "Accept-Language": store.lang } });
      const page = await r.json();
      if (!r.ok) throw new Error((page.error && page.error.message) || r.statusText);
      current = page.game === game && page.revision === revision;
      if (!current || !page.rounds.length) break;
      rounds = page.rounds.concat(rounds);
      before = page.rounds[0].number;
    }
    if (current) Object.assign(older, { game, revision, rounds });
  } catch (err) {
    toast(err.message);
  } finally {
    older.busy = false;
  }
  // The state changed while the pages were read: read them again for it.
  if (current && score().revision !== older.revision && older.rounds.length) loadOlder(0);
  renderHistory();
}

/** One round as it is now, read from the box when it is not on screen. */
async function roundNow(number) {
  const known = shownRounds().find((r) => r.number === number);
  if (known) return known;
  const r = await request("/api/score/rounds?before=" + (number + 1) + "&limit=1");
  const page = r.ok ? await r.json() : { rounds: [] };
  return page.rounds.find((x) => x.number === number) || null;
}

/** {player: {points, hand}} of one round. */
function roundHands(r) {
  const out = {};
  (r.hands || []).forEach((h) => { out[h.player] = { points: h.points ?? 0, hand: h.hand }; });
  return out;
}

// A new round counts with the deck in the players' hands (the pads'); a past round edited, with
// the game's own cards, as it was saved.
const entryRuleset = () => (entry.editing ? (score().game || {}).ruleset : padRuleset());

function handPoints(player) {
  const hand = entry.hands[player];
  if (!hand) return 0;
  if ("points" in hand) return hand.points;
  return countedPoints(hand.counts, entryRuleset());
}

// The score revision the entry started from: if another phone records or edits a round
// meanwhile, saving is refused (409) instead of silently overwriting or doubling a round.
function startEntry() {
  if (entry.revision === null) entry.revision = score().revision;
}

function resetEntry() {
  Object.assign(entry, { hands: {}, editing: null, revision: null, winner: null, another: false,
    raw: false, full: false });
}

function tapKind(kind) {
  const p = entry.player;
  if (!p) return;
  startEntry();
  const hand = entry.hands[p] && entry.hands[p].counts ? entry.hands[p] : { counts: {} };
  const n = (hand.counts[kind] || 0) + ($("minus-mode").checked ? -1 : 1);
  if (n > 0) hand.counts[kind] = n; else delete hand.counts[kind];
  entry.hands[p] = hand;
  render();
}

/**
 * The score database cannot be used (full, read-only, locked, damaged, gone): say so, offer a
 * backup. A database made again while the box ran (its file went) is said too.
 */
function renderStorage() {
  const storage = (store.state && store.state.storage) || {};
  const notice = storage.notice && storage.notice.notice;
  $("storage-problem").hidden = storage.ok !== false && !notice;
  $("storage-backup-row").hidden = storage.ok !== false;
  if (storage.ok !== false) {
    if (notice) $("storage-text").textContent = t("storage_" + notice);
    return;
  }
  $("storage-text").textContent = t("storage_" + storage.problem);
  const names = (storage.backups || []).map((b) => b.name);
  const select = $("storage-backups");
  if (document.activeElement !== select) fill(select, names, select.value || names[0]);
  $("storage-restore").disabled = names.length === 0;
}

function render() {
  renderStorage();
  renderGames();
  const sc = score();
  const hasGame = Boolean(sc.game);
  $("no-game").hidden = hasGame;
  $("game").hidden = !hasGame;
  if (!hasGame) {
    // The default name in this phone's language (a name typed by hand stays).
    const typed = $("game-name").value;
    if (!typed || ((store.session || {}).default_game_names || []).includes(typed)) {
      $("game-name").value = t("default_game_name");
    }
    return;
  }
  const game = sc.game;
  $("game-title").textContent = gameName(game) + " — " + t("target_points", { target: game.target });
  standingsList($("standings"));
  // Once someone passed the target the game is over: its winner, and no entry form.
  const over = gameOver();
  $("score-over").hidden = !over;
  // The table's round is over and already saved (from the Table screen or here): it shows as
  // saved, with no second form for it (another round can still be entered on purpose).
  const saved = Boolean(table().round_over) && roundRecorded() && !entry.editing && !entry.another;
  $("entry-saved").hidden = !saved || over;
  if (saved) {
    $("entry-saved-text").textContent = t("round_saved", { round: roundCount() });
  }
  $("entry").hidden = (over || saved) && !entry.editing;
  if (over) {
    $("score-winner").textContent = t("game_won_by", { player: (standings().winners || []).join(" & ") });
  }
  renderEntry();
  const chart = $("chart");
  // Drawn again when the game, its rounds or the players' colours change (not at each press).
  const colours = Object.values((store.state.page || {}).colours || {}).join("");
  const src = "/api/chart.svg?lang=" + store.lang + "&game=" + encodeURIComponent(game.id || "")
    + "&rev=" + sc.revision + "&colours=" + colours;
  if (chart.getAttribute("src") !== src) chart.src = src;
  // The score sheet in this phone's language (French: French headers, ';' between columns),
  // not the browser's: the phone chose its language on the page.
  $("export").setAttribute("href", "/api/export.csv?lang=" + store.lang);
  chart.alt = t("chart_title");
  if (older.game === gameId() && older.revision !== sc.revision && older.rounds.length) {
    loadOlder(0);
  }
  renderHistory();
  renderStats();
  $("score-undo").disabled = sc.can_undo === false;
  $("score-redo").disabled = sc.can_redo === false;
}

function renderEntry() {
  const names = scorePlayers();
  if (!names.includes(entry.player)) entry.player = names[0] || null;
  const tabs = $("entry-players");
  tabs.textContent = "";
  names.forEach((p) => {
    tabs.append(el("button", { type: "button", role: "tab", class: "chip", "data-entry": p,
      "aria-selected": String(p === entry.player),
      onclick: () => { entry.player = p; render(); } }, p + " · " + handPoints(p)));
  });
  const current = entry.hands[entry.player];
  // "Points directs" stays ticked from one player to the next until it is unticked.
  const raw = current ? "points" in current : entry.raw;
  $("raw-points").checked = raw;
  $("kind-pad").hidden = raw;
  $("points-label").hidden = !raw;
  if (raw && document.activeElement !== $("points-input")) {
    $("points-input").value = current ? current.points : "";
  }
  const pad = $("kind-pad");
  pad.textContent = "";
  const counts = (current || {}).counts || {};
  // A past round edited: every kind of its game (the side it ended on is its own).
  scoreKinds(entryRuleset(), entry.editing ? "" : undefined).forEach((k) => {
    const n = counts[k.kind] || 0;
    const b = el("button", { type: "button", class: "kind", "data-kind": k.kind,
      "aria-label": k.label + " (" + k.points + ")" + (n ? " ×" + n : ""),
      onclick: () => tapKind(k.kind) });
    b.append(el("span", { class: "label" }, k.label), el("span", { class: "pts" }, t("kind_points", { count: k.points })),
      el("span", { class: "count" }, n ? "×" + n : ""));
    pad.append(b);
  });
  // Who went out: chosen by hand, else the table's round winner, else the only empty hand.
  const emptyHands = names.filter((p) => !entry.hands[p] || handPoints(p) === 0);
  const tableWinner = table().round_over && !roundRecorded() ? table().winner : null;
  const guess = entry.winner || (names.includes(tableWinner) ? tableWinner : null)
    || (emptyHands.length === 1 ? emptyHands[0] : "");
  fill($("winner"), ["", ...names], guess, (v) => v || "—");
  renderSummary(names);
  $("entry-title").textContent = entry.editing ? t("edit_round_n", { round: entry.editing })
    : t("enter_round");
  $("cancel-edit").hidden = !entry.editing;
}

function renderSummary(names) {
  const summary = $("entry-summary");
  summary.textContent = "";
  names.forEach((p) => summary.append(el("li", {}, p + " : " + handPoints(p))));
}

function renderHistory() {
  const list = $("history");
  list.textContent = "";
  const rounds = shownRounds();
  $("older-rounds").hidden = !rounds.length || rounds[0].number <= 1;
  rounds.forEach((r, i) => {
    const number = r.number || i + 1;
    const hands = roundHands(r);
    const li = el("li", { "data-round": String(number) });
    const text = Object.keys(hands).map((p) => p + " " + hands[p].points).join(" · ");
    const won = r.winner ? " (" + t("round_won_by", { player: r.winner }) + ")" : "";
    li.append(el("span", { class: "round-text" }, t("round_n", { round: number }) + " — " + text + won));
    const actions = el("span", { class: "round-actions" });  // the two buttons wrap together
    li.append(actions);
    actions.append(el("button", { type: "button", class: "small", "data-edit": String(number),
      "aria-label": t("edit_round_n", { round: number }),
      onclick: () => startEdit(r, number) }, t("edit")));
    actions.append(el("button", { type: "button", class: "small secondary", "data-delete": String(number),
      "aria-label": t("delete_round_n", { round: number }),
      onclick: () => {
        if (confirm(t("confirm_delete", { round: number }))) {
          act("score.delete_round", { round: number, revision: score().revision }, { revision: false });
        }
      } }, "✕"));
    list.append(li);
  });
}

function startEdit(r, number) {
  resetEntry();
  entry.editing = number;
  entry.revision = score().revision;
  entry.winner = r.winner || null;
  Object.entries(roundHands(r)).forEach(([p, h]) => {
    const hand = h.hand || {};
    entry.hands[p] = hand.cards ? { counts: Object.assign({}, hand.cards) }
      : { points: hand.points ?? h.points };
  });
  render();
  $("entry").scrollIntoView({ behavior: "smooth" });
}

// Per party: rounds won, the points scored per round played (its total over the rounds played,
// so 0 for a total of 0), and the most points left in a hand of its own.
function renderStats() {
  const stats = $("stats");
  stats.textContent = "";
  const add = (name, value) => { stats.append(el("dt", {}, name), el("dd", {}, value)); };
  add(t("rounds_played"), String(roundCount()));
  // Counted by the box over the whole game (the page holds only the last rounds).
  const perParty = score().game_stats || {};
  (standings().rows || []).forEach((row) => {
    const { played = 0, costliest = 0 } = perParty[row.party] || {};
    add(row.party, t("stats_line", { wins: row.rounds_won ?? 0,
      average: played ? Math.round(row.total / played) : 0, best: costliest }));
  });
}

function roundPayload() {
  const hands = {};
  scorePlayers().forEach((p) => {
    const h = entry.hands[p];
    hands[p] = sheetHand(h && "points" in h ? h : { [HAND_CARDS]: (h && h.counts) || {} },
      entryRuleset());
  });
  const payload = { hands, winner: $("winner").value || undefined };
  // UNO Flip: hands count on the side the round ended on (000 §XI.G), the table's side.
  const sides = (score().game && score().game.ruleset && score().game.ruleset.sides) || [];
  if (!entry.editing && sides.length > 1 && sides.includes(table().side)) payload.side = table().side;
  if (entry.revision !== null) payload.revision = entry.revision;
  return payload;
}

// Refused as stale (409): another phone changed the score since this entry started. A correction
// is reloaded from the round as it is now (nothing of the other phone's is overwritten); a new
// round is cleared, since the other phone most likely entered this same round. Refused because
// the game is full: the entry stays as typed, for a new game.
async function saveRound() {
  const payload = roundPayload();
  const editing = entry.editing;
  let stale = false;
  const refused = (err) => {
    const full = GAME_FULL.includes(err.key);
    stale = err.status === 409 && !full;
    entry.full = full && !editing;
  };
  const ok = editing
    ? await act("score.correct_round", Object.assign({ round: editing }, payload), { revision: false, refused })
    : await act("score.record_round", payload, { revision: false, refused });
  if (ok) { resetEntry(); render(); toast(t("saved"), "ok"); return; }
  if (!stale) return;
  const now = editing ? await roundNow(editing) : null;
  if (editing && now) {
    startEdit(now, editing);
    toast(t("stale_correction", { round: editing }));
  } else {
    resetEntry();
    render();
    toast(t("stale_round"));
  }
}

// An import adds a game and opens it; the game open before stays in the list (Undo opens it).
async function importFile(e) {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  const aside = setAside();
  if (aside && !confirm(t("confirm_import", { what: aside }))) return;
  const before = gameId();
  const text = await file.text();
  const format = /\.json$/i.test(file.name) ? "json" : "csv";
  if (await act("score.import", { format, text }, { revision: false })) {
    offerUndoNewGame(t("imported"), before);
  }
}

// A new game is added and opened: the confirm says what is set aside, the toast offers Undo.
async function newGame() {
  const typed = $("game-name").value.trim();
  const defaults = (store.session || {}).default_game_names || [];
  const name = !typed || defaults.includes(typed) ? autoGameName(players()) : typed;
  const payload = Object.assign({ name, players: players(), first_dealer: table().dealer },
    gameSettings());
  const before = gameId();
  if (await act("score.new_game", payload, { revision: false })) {
    // A round the last game had no room for is the new game's first (its hands as typed).
    if (entry.full) Object.assign(entry, { revision: null, full: false }); else resetEntry();
    offerUndoNewGame(t("new_game_started"), before);
  }
}

/** The stored games, newest first: open one, rename it, delete it (Undo brings it back). */
function renderGames() {
  const kept = (store.state && store.state.games_kept) || {};
  const deleted = kept.deleted || [];
  const games = (score().games || []).filter((g) => !deleted.includes(g.id)).slice().reverse();
  $("games-card").hidden = !games.length;
  const list = $("games");
  const key = JSON.stringify([games, kept.names, gameId(), store.lang]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.textContent = "";
  games.forEach((g) => {
    const name = gameName(g);
    const open = g.id === gameId();
    const li = el("li", { class: "game" + (open ? " open" : ""), "data-game": g.id });
    li.append(el("span", { class: "game-name" }, name),
      el("span", { class: "muted game-what" }, [g.date, (g.players || []).join(", ")].filter(Boolean).join(" · ")));
    const actions = el("span", { class: "round-actions" });
    if (open) actions.append(el("span", { class: "badge open-badge" }, t("game_open")));
    else {
      actions.append(el("button", { type: "button", class: "small", "data-open-game": g.id,
        "aria-label": t("open_game_named", { name }),
        onclick: () => act("score.open_game", { game: g.id }, { revision: false }) }, t("open_game")));
    }
    actions.append(el("button", { type: "button", class: "small secondary", "data-rename-game": g.id,
      "aria-label": t("rename_game_named", { name }),
      onclick: () => {
        const given = prompt(t("rename_game_prompt"), name);
        if (given && given.trim() && given.trim() !== name) {
          act("score.rename_game", { game: g.id, name: given.trim().slice(0, 80) }, { revision: false });
        }
      } }, t("rename")));
    if (!open) {
      actions.append(el("button", { type: "button", class: "small secondary", "data-delete-game": g.id,
        "aria-label": t("delete_game_named", { name }),
        onclick: async () => {
          if (await act("score.delete_game", { game: g.id }, { revision: false })) {
            toast(t("game_deleted", { name }), "ok", { label: t("undo"),
              run: () => act("score.restore_game", { game: g.id }, { revision: false }) });
          }
        } }, "✕"));
    }
    li.append(actions);
    list.append(li);
  });
}

function wire() {
  $("new-game").addEventListener("click", newGame);
  $("new-game-again").addEventListener("click", () => {
    const aside = setAside();
    if (!aside || confirm(t("confirm_new_game_named", { what: aside }))) newGame();
  });
  $("raw-points").addEventListener("change", (e) => {
    const p = entry.player; if (!p) return;
    startEntry();
    entry.raw = e.target.checked;
    entry.hands[p] = e.target.checked ? { points: handPoints(p) } : { counts: {} };
    render();
  });
  $("points-input").addEventListener("input", (e) => {
    const p = entry.player; if (!p) return;
    startEntry();
    entry.hands[p] = { points: Math.max(0, Math.floor(Number(e.target.value) || 0)) };
    const chip = document.querySelector('[data-entry="' + CSS.escape(p) + '"]');
    if (chip) chip.textContent = p + " · " + handPoints(p);
    renderSummary(scorePlayers());  // the summary follows each figure typed
  });
  $("save-round").addEventListener("click", saveRound);
  $("entry-another").addEventListener("click", () => { entry.another = true; render(); });
  $("import-file").addEventListener("change", importFile);
  $("older-rounds").addEventListener("click", () => loadOlder(PAGE));
  $("cancel-edit").addEventListener("click", () => { resetEntry(); render(); });
  $("clear-entry").addEventListener("click", () => { resetEntry(); render(); });
  $("winner").addEventListener("change", (e) => { startEntry(); entry.winner = e.target.value || null; });
  const revision = () => ({ revision: score().revision });
  $("score-undo").addEventListener("click", () => act("score.undo", revision(), { revision: false }));
  $("score-redo").addEventListener("click", () => act("score.redo", revision(), { revision: false }));
  $("score-announce").addEventListener("click", () => act("score.announce", {}, { revision: false }));
  $("storage-restore").addEventListener("click", () => {
    const backup = $("storage-backups").value;
    if (backup && confirm(t("storage_confirm_restore"))) {
      act("storage.restore", { backup }, { revision: false });
    }
  });
}

export default { id: "score", tab: "tab_score", markup, wire, render };
