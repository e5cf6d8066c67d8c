// The round's log (the table state's `log`): every line with its card and where it came from
// (a phone, a box button, a script, the camera, the box itself), and the mends a phone can make:
// a play replaced by the card the table really saw, a card inserted before a line, a line removed.
// The box recomputes the table from the mended log; a press keeps the cards it really fired.
//
// A line: {seq, event, action, payload, card: {kind, colour} | null, player, source,
//          fired: cards | null, refused: {key, message} | null}

import { $, el, fill } from "../dom.js";
import { act, players, store, t, table } from "../store.js";
import { cardLabel, cardName, colours, playable } from "./deck.js";

// What the open mender shows; taken from its line once, when it opens (`from`), so a redraw
// (another phone's change, the turret turning) keeps what the player has chosen since.
const local = { open: null, from: null, card: "number", value: 5, colour: "red", player: "" };

export const roundLogMarkup = `
<details id="round-log" class="card round-log">
  <summary data-i18n="round_log"></summary>
  <p class="muted" data-i18n="round_log_help"></p>
  <ol id="round-log-lines" class="history"></ol>
</details>`;

export function wireRoundLog() {
  $("table-redo").addEventListener("click", () => act("table.redo", {}));
}

/** What a line says: the card (with its colour and figure) or the event, and who. */
export function lineText(line) {
  let what = t("log_" + line.event);
  if (line.card) {
    const figure = line.card.kind === "number" ? line.payload.value : undefined;
    what = cardName(figure === undefined ? cardLabel(line.card.kind) : String(figure), line.card.colour);
  }
  const who = line.player || line.payload.target || "";
  const fired = line.fired === null || line.fired === undefined ? ""
    : " — " + t("log_fired", { count: line.fired });
  return what + (who ? " · " + who : "") + fired;
}

export function renderRoundLog() {
  const tb = table();
  const lines = tb.log || [];
  $("table-redo").disabled = !tb.can_redo;
  const list = $("round-log-lines");
  list.textContent = "";
  if (!lines.some((l) => l.seq === local.open)) local.open = null;
  if (local.open === null) local.from = null;
  lines.slice().reverse().forEach((line) => {
    const item = el("li", { class: "log-line" + (line.refused ? " refused" : ""),
      "data-seq": String(line.seq) });
    const when = line.at ? new Date(line.at * 1000).toLocaleTimeString(store.lang,
      { hour: "2-digit", minute: "2-digit" }) : "";
    item.append(
      el("span", { class: "seq", title: when }, "#" + line.seq),
      el("span", { class: "what" }, lineText(line)),
      el("span", { class: "badge source " + line.source }, t("source_" + line.source)));
    if (line.refused) item.append(el("span", { class: "warn" }, line.refused.message));
    item.append(el("button", { type: "button", class: "secondary log-mend",
      "aria-expanded": String(local.open === line.seq),
      onclick: () => { local.open = local.open === line.seq ? null : line.seq; renderRoundLog(); } },
    t("log_mend")));
    if (local.open === line.seq) item.append(mender(line));
    list.append(item);
  });
}

// The mends of one line: replace a play by the card chosen here, insert that card before the
// line, remove the line. A press or the deal is not turned into a play (the box would refuse).
function mender(line) {
  if (local.from !== line.seq && line.card && line.event === "play") {
    local.card = line.card.kind;
    if (line.card.colour) local.colour = line.card.colour;
    if (line.payload.value !== undefined) local.value = line.payload.value;
  }
  local.from = line.seq;
  if (!players().includes(local.player)) local.player = "";
  const box = el("div", { class: "mender" });
  const kinds = el("select", { "aria-label": t("play_card"),
    onchange: (e) => { local.card = e.target.value; } });
  fill(kinds, playable().map((c) => c.key), local.card, cardLabel);
  const value = el("input", { type: "number", min: "0", max: "9", value: String(local.value),
    "aria-label": t("log_value"), onchange: (e) => { local.value = Number(e.target.value); } });
  const colour = el("select", { "aria-label": t("colour"),
    onchange: (e) => { local.colour = e.target.value; } });
  fill(colour, colours(), local.colour, (c) => t("colour_" + c));
  const by = el("select", { "aria-label": t("chosen_player"),
    onchange: (e) => { local.player = e.target.value; } });
  fill(by, ["", ...players()], local.player, (p) => p || t("log_whoever"));
  const played = () => {
    const payload = { card: local.card, colour: local.colour };
    if (local.card === "number") payload.value = local.value;
    if (local.player) payload.player = local.player;
    return { action: "table.play", payload };
  };
  const done = () => { local.open = null; };
  const choice = el("div", { class: "row" });
  choice.append(kinds, value, colour, by);
  box.append(choice);
  const buttons = el("div", { class: "row" });
  if (line.event === "play") {
    buttons.append(el("button", { type: "button", class: "log-replace",
      onclick: () => act("table.replace", { seq: line.seq, ...played() }).then(done) },
    t("log_replace")));
  }
  if (line.event !== "start_round") {
    buttons.append(
      el("button", { type: "button", class: "secondary log-insert",
        onclick: () => act("table.insert", { before: line.seq, ...played() }).then(done) },
      t("log_insert")),
      el("button", { type: "button", class: "secondary log-remove",
        onclick: () => act("table.remove", { seq: line.seq }).then(done) }, t("log_remove")));
  }
  box.append(buttons);
  return box;
}
