// Evening screen: the older rule sheet's evening of partner games (4 players: 12 games, 8 players
// on two tables: 28 games). The schedule is made by the box; this screen starts it with the
// players at the table, seats each game (partners across), records who went out and their points,
// and names the evening's winner and the consolation prize at the end.

import { $, el } from "../dom.js";
import { act, evening, store, t, table } from "../store.js";
import { paint } from "../components/colours.js";

const markup = `
<h2 data-i18n="evening"></h2>
<div id="evening-none" class="card">
  <p data-i18n="evening_about"></p>
  <button type="button" id="evening-start" class="primary" data-i18n="evening_start"></button>
  <p id="evening-need" class="muted" data-i18n="evening_need"></p>
</div>
<div id="evening-on" hidden>
  <div id="evening-end-card" class="card flow" hidden>
    <h3 id="evening-winner" class="winner"></h3>
    <p id="evening-consolation"></p>
  </div>
  <p id="evening-progress" class="muted"></p>
  <div id="evening-pending"></div>
  <div class="card">
    <h3 data-i18n="evening_marks"></h3>
    <ol id="evening-marks" class="standings"></ol>
  </div>
  <details class="card">
    <summary data-i18n="evening_schedule"></summary>
    <ol id="evening-games" class="history"></ol>
  </details>
  <button type="button" id="evening-stop" class="secondary" data-i18n="evening_stop"></button>
</div>`;

const teamName = (team) => team.join(" & ");

function render() {
  const ev = evening();
  const on = Boolean(ev.players);
  $("evening-none").hidden = on;
  $("evening-on").hidden = !on;
  const count = (table().players || []).length;
  $("evening-start").disabled = !(count === 4 || count === 8);
  $("evening-need").hidden = count === 4 || count === 8;
  if (!on) return;
  $("evening-progress").textContent = t("evening_progress", { played: ev.played, total: ev.games.length });
  $("evening-end-card").hidden = !ev.finished;
  if (ev.finished) {
    $("evening-winner").textContent = t("evening_winner", { player: ev.winners.join(" & ") });
    $("evening-consolation").textContent = t("evening_consolation", { player: ev.consolation.join(" & ") });
  }
  renderPending(ev);
  const marks = $("evening-marks");
  marks.textContent = "";
  ev.standings.forEach((row) => {
    const name = el("span", { class: "name" }, row.rank + ". " + row.player);
    paint(name, row.player);
    const li = el("li", { "data-player": row.player });
    li.append(name, el("span", { class: "total" }, String(row.mark)));
    marks.append(li);
  });
  const games = $("evening-games");
  games.textContent = "";
  ev.games.forEach((g) => {
    const result = g.result ? " — " + t("evening_won", { team: teamName(g.teams[g.result.winners]),
      points: g.result.points }) : "";
    games.append(el("li", {}, t("evening_game", { number: g.number, table: g.table })
      + " : " + teamName(g.teams[0]) + " / " + teamName(g.teams[1]) + result));
  });
}

// The games to play now (one per table), each with its seating and a result form. With eight
// players the box serves one table: either table's game can be seated at it.
function renderPending(ev) {
  const box = $("evening-pending");
  const seated = (table().players || []).map((p) => p.name).join();
  const key = JSON.stringify([ev.pending, seated, store.lang]);
  if (box.dataset.key === key) return;  // keep a half-typed result
  box.dataset.key = key;
  // Drawn again (the seating changed, another phone...): points already typed stay typed.
  const typed = new Map([...box.querySelectorAll("[data-game]")].map((card) =>
    [card.dataset.game, card.querySelector("input").value]));
  box.textContent = "";
  ev.pending.forEach((g) => {
    const card = el("div", { class: "card", "data-game": g.number + "-" + g.table });
    const title = el("h3", {}, t("evening_game", { number: g.number, table: g.table }));
    const atBox = [g.teams[0][0], g.teams[1][0], g.teams[0][1], g.teams[1][1]].join() === seated;
    if (atBox) title.append(" ", el("span", { class: "badge" }, t("evening_at_box")));
    card.append(title, el("p", {}, teamName(g.teams[0]) + " / " + teamName(g.teams[1])));
    if (!atBox) {
      card.append(el("button", { type: "button", class: "secondary", "data-seat-game": "",
        onclick: () => act("evening.seat", { game: g.number, table: g.table }, { revision: false }) },
      t("evening_seat")));
    }
    const points = el("input", { type: "number", inputmode: "numeric", min: "0", max: "10000",
      "aria-label": t("evening_points") });
    points.value = typed.get(g.number + "-" + g.table) || "";
    const row = el("div", { class: "cards" });
    g.teams.forEach((team, i) => {
      row.append(el("button", { type: "button", class: "primary", "data-winners": String(i),
        onclick: () => act("evening.record", { game: g.number, table: g.table, winners: i,
          points: Math.max(0, Math.floor(Number(points.value) || 0)) }, { revision: false }) },
      t("evening_went_out", { team: teamName(team) })));
    });
    const label = el("label", {});
    label.append(el("span", {}, t("evening_points")), points);
    card.append(label, row);
    box.append(card);
  });
}

function wire() {
  $("evening-start").addEventListener("click", () => act("evening.start",
    { players: (table().players || []).map((p) => p.name) }, { revision: false }));
  $("evening-stop").addEventListener("click", () => {
    if (confirm(t("evening_confirm_stop"))) act("evening.end", {}, { revision: false });
  });
}

export default { id: "evening", tab: "tab_evening", markup, wire, render };
