// The phone page of uno-companion: one vanilla script, no framework, nothing from a CDN.
// Every phone at the table runs this; the box sends each change to all of them live (SSE).
// User data is only ever put in the page with textContent (never innerHTML).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const COLOURS = ["red", "yellow", "green", "blue"];
  // Card buttons in the order they are found on the table; draw2 / UNO Attack cards show only
  // when the rules put them in the deck (state.options.cards).
  const CARD_BUTTONS = ["reverse", "skip", "hit2", "discard_all", "coup_extreme", "wild", "draw4",
    "draw2", "wild_all_hit", "wild_hit_fire"];
  const BASE_CARDS = ["number", "reverse", "skip", "hit2", "discard_all", "coup_extreme", "wild",
    "draw4"];

  const ui = {
    session: null, texts: {}, lang: "fr", state: null, revision: -1,
    chosen: null, colour: "red", pendingCoup: false, screen: "table",
    entry: {}, entryPlayer: null, editing: null, seats: [], seatsDirty: false,
    lastFiredRevision: -1, retryAfterPin: null,
  };

  // ---------------------------------------------------------------- texts
  function t(key, params) {
    let text = ui.texts[key];
    if (text === undefined) return key;
    if (params) text = text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
    return text;
  }

  async function loadTexts(lang) {
    const r = await fetch("/api/i18n/" + lang);
    if (!r.ok) return;
    ui.texts = await r.json();
    ui.lang = lang;
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
    document.querySelectorAll("[data-i18n-label]").forEach((el) => {
      el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    });
    document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => {
      el.placeholder = t(el.dataset.i18nPlaceholder);
    });
    document.title = t("app_title");
  }

  // ---------------------------------------------------------------- server
  function toast(message, kind) {
    const el = $("toast");
    el.textContent = message;
    el.className = "toast " + (kind || "error");
    el.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
  }

  async function refreshSession() {
    const r = await fetch("/api/session", { headers: { "Accept-Language": ui.lang } });
    ui.session = await r.json();
    $("lock").hidden = !ui.session.pin_required;
    $("lock").textContent = ui.session.authenticated ? t("pin_ok") : t("pin_enter");
    $("logout").hidden = !(ui.session.pin_required && ui.session.authenticated);
    $("pin-card").hidden = !ui.session.pin_required;
    const urls = $("urls");
    urls.textContent = "";
    ui.session.urls.forEach((u) => {
      const a = document.createElement("a");
      a.href = u; a.textContent = u;
      urls.append(a, document.createElement("br"));
    });
  }

  async function post(path, body, retried) {
    const r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": ui.session.csrf,
        "Accept-Language": ui.lang },
      body: JSON.stringify(body),
    });
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (r.ok) return data;
    const error = (data && data.error) || { key: "", message: r.statusText };
    if (error.key === "web.error_csrf" && !retried) {
      await refreshSession();  // the box restarted: new session
      return post(path, body, true);
    }
    const err = new Error(error.message);
    err.status = r.status; err.key = error.key;
    throw err;
  }

  // Send one action. Edits carry the revision they were based on: if another phone changed the
  // table first the box answers 409 and nothing is lost silently.
  // Drop the fields an action does not take (the box refuses unknown fields).
  function only(name, payload) {
    const allowed = ui.session && ui.session.actions && ui.session.actions[name];
    if (!allowed) return payload;
    const out = {};
    Object.keys(payload).forEach((k) => { if (allowed.includes(k) && payload[k] !== undefined) out[k] = payload[k]; });
    return out;
  }
  const hasAction = (name) => Boolean(ui.session && ui.session.actions && name in ui.session.actions);

  async function act(name, payload, options) {
    const body = { payload: only(name, payload || {}) };
    if (!options || options.revision !== false) body.revision = ui.revision;
    try {
      const state = await post("/api/actions/" + name, body);
      render(state);
      return true;
    } catch (err) {
      if (err.status === 401) {
        askPin(() => act(name, payload, options));
      } else {
        toast(err.message || t("error_network"));
        if (err.status === 409) await reloadState();
      }
      return false;
    }
  }

  async function reloadState() {
    const r = await fetch("/api/state");
    if (r.ok) render(await r.json());
  }

  function connect() {
    const source = new EventSource("/api/events");
    source.addEventListener("state", (e) => render(JSON.parse(e.data)));
    source.onopen = () => { $("live").textContent = t("live"); $("live").className = "live on"; };
    source.onerror = () => {
      $("live").textContent = t("offline"); $("live").className = "live";
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 5000);
    };
  }

  // ---------------------------------------------------------------- PIN
  function askPin(then) {
    ui.retryAfterPin = then;
    $("pin-error").textContent = "";
    $("pin-input").value = "";
    $("pin-dialog").showModal();
    $("pin-input").focus();
  }

  async function submitPin(ev) {
    ev.preventDefault();
    try {
      await post("/api/login", { pin: $("pin-input").value });
      $("pin-dialog").close();
      await refreshSession();
      const then = ui.retryAfterPin; ui.retryAfterPin = null;
      if (then) then();
    } catch (err) {
      $("pin-error").textContent = err.message;
    }
  }

  // ---------------------------------------------------------------- helpers
  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else if (v === null) continue;
      else node.setAttribute(k, v);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function fill(select, values, current, label) {
    select.textContent = "";
    values.forEach((v) => {
      const o = el("option", { value: v }, label ? label(v) : v);
      if (v === current) o.selected = true;
      select.append(o);
    });
  }

  const table = () => (ui.state && ui.state.table) || {};
  const score = () => (ui.state && ui.state.score) || {};
  const settings = () => (ui.state && ui.state.settings) || {};
  const options = () => (ui.state && ui.state.options) || {};
  const device = () => (ui.state && ui.state.device) || {};
  const players = () => (table().players || []).filter((p) => !p.eliminated).map((p) => p.name);
  const cardName = (kind) => t("card_" + kind);

  // ---------------------------------------------------------------- render
  // Cards fired since the previous state: the engine's count for the last event, or what left
  // the magazine (several changes may arrive as one state).
  function firedSince(prev, now) {
    if (now.fired > 0) return now.fired;
    if (!prev || prev.round !== now.round || !(now.events > prev.events)) return 0;
    const gone = (prev.magazine ?? 0) - (now.magazine ?? 0);
    return gone > 0 ? gone : 0;
  }

  function render(state) {
    if (!state || typeof state.revision !== "number") return;
    if (ui.state && state.revision < ui.revision) return;  // an older answer arrived late
    const lang = state.settings && state.settings.language;
    ui.fired = ui.state && state.revision > ui.revision ? firedSince(ui.state.table || {}, state.table || {}) : 0;
    ui.state = state;
    ui.revision = state.revision;
    if (lang && lang !== ui.lang) loadTexts(lang).then(() => renderAll());
    else renderAll();
  }

  function renderAll() {
    renderTable();
    renderScore();
    if (!ui.seatsDirty) renderSetup();
    renderDevice();
  }

  function renderTable() {
    const tb = table();
    $("active").textContent = tb.active || "—";
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
    if (ui.fired > 0 && ui.lastFiredRevision !== ui.revision) {
      ui.lastFiredRevision = ui.revision;
      const banner = $("fired-banner");
      banner.textContent = t("fired", { count: ui.fired, player: tb.facing || "" });
      banner.hidden = false;
      banner.classList.remove("pop"); void banner.offsetWidth; banner.classList.add("pop");
      clearTimeout(renderTable.timer);
      renderTable.timer = setTimeout(() => { banner.hidden = true; }, 5000);
      animateFire(ui.fired);
    }
    // Player chips: the chosen player is who the penalty buttons apply to.
    const names = players();
    if (!names.includes(ui.chosen)) ui.chosen = null;
    const chips = $("chips");
    chips.textContent = "";
    (tb.players || []).forEach((p) => {
      const chosen = ui.chosen ? ui.chosen === p.name : tb.active === p.name;
      const chip = el("button", {
        type: "button", role: "radio", class: "chip" + (p.name === tb.active ? " active" : ""),
        "aria-checked": String(chosen), "data-player": p.name,
        onclick: () => { ui.chosen = p.name; renderTable(); },
      });
      if (p.eliminated) chip.disabled = true;
      chip.append(el("span", { class: "name" }, p.name),
        el("span", { class: "hand" }, t("hand", { count: p.hand })));
      if (p.uno) chip.append(el("span", { class: "badge" }, "UNO"));
      chips.append(chip);
    });
    renderColours();
    renderCardButtons();
    $("hit").disabled = ui.session && !ui.session.remote_press && device().simulated === false;
    $("table-undo").disabled = !tb.can_undo;
  }

  function chosenPlayer() { return ui.chosen || table().active; }

  function renderColours() {
    const row = $("colour-row");
    if (row.childElementCount) {
      row.querySelectorAll("button").forEach((b) => {
        b.setAttribute("aria-checked", String(b.dataset.colour === ui.colour));
        b.textContent = t("colour_" + b.dataset.colour);
      });
      return;
    }
    COLOURS.forEach((c) => {
      row.append(el("button", {
        type: "button", role: "radio", class: "colour " + c, "data-colour": c,
        "aria-checked": String(c === ui.colour),
        onclick: () => { ui.colour = c; renderColours(); },
      }, t("colour_" + c)));
    });
  }

  function renderCardButtons() {
    // Super Joker stays visible (it is on the rule sheet); the box explains if the deck lacks it.
    const rules = settings().rules || {};
    const allowed = options().cards || BASE_CARDS.concat(rules.any_deck ? ["draw2"] : [],
      rules.wild_all_hit ? ["wild_all_hit"] : [], rules.hit_fire ? ["wild_hit_fire"] : []);
    const digits = $("digits");
    if (!digits.childElementCount) {
      for (let v = 0; v <= 9; v++) {
        digits.append(el("button", { type: "button", class: "digit", "data-value": String(v),
          onclick: () => act("table.play", { card: "number", value: v, colour: ui.colour }) },
          String(v)));
      }
    }
    const zero = digits.querySelector('[data-value="0"]');
    zero.hidden = !(options().zero_cards ?? rules.any_deck ?? false);  // the Extrême deck has no 0
    const cards = $("cards");
    cards.textContent = "";
    CARD_BUTTONS.filter((k) => allowed.includes(k)).forEach((kind) => {
      cards.append(el("button", { type: "button", class: "card-btn " + kind, "data-card": kind,
        onclick: () => playCard(kind) }, cardName(kind)));
    });
  }

  function playCard(kind) {
    if (kind === "coup_extreme") {
      const picker = $("target-picker");
      const targets = $("targets");
      targets.textContent = "";
      players().filter((p) => p !== table().active).forEach((p) => {
        targets.append(el("button", { type: "button", class: "chip", "data-target": p,
          onclick: () => {
            picker.hidden = true;
            act("table.play", { card: "coup_extreme", colour: ui.colour, target: p });
          } }, p));
      });
      picker.hidden = false;
      return;
    }
    const payload = { card: kind, colour: ui.colour };
    if (kind === "discard_all") {
      const count = Number(prompt(t("discard_all_count"), "2"));
      if (!Number.isInteger(count) || count < 1) return;
      payload.count = count;
    }
    act("table.play", payload);
  }

  // ---------------------------------------------------------------- score
  // The score snapshot: {game: {name, players, mode, target, teams, ruleset: {kinds}},
  // standings: {rows: [{party, total, rank, eliminated_in}]}, history: [{number, winner,
  // hands: [{player, hand: {cards}|{points}, points}], credited, totals}], can_undo, can_redo}.
  const HAND_CARDS = "cards";  // payload field of a hand given as card counts

  function scoreKinds() {
    const sc = score();
    const kinds = (sc.game && sc.game.ruleset && sc.game.ruleset.kinds) || sc.card_kinds || [];
    return kinds.filter((k) => k.count !== 0).map((k) => ({
      kind: k.key || k.kind, points: k.value ?? k.points ?? 0,
      label: k["label_" + ui.lang] || k.label || k.key || k.kind,
    }));
  }
  const scorePlayers = () => { const sc = score(); return (sc.game && sc.game.players) || sc.players || []; };
  const history = () => score().history || score().rounds || [];

  function roundHands(r) {
    // {player: {points, hand}} whatever the round's shape.
    const out = {};
    if (Array.isArray(r.hands)) {
      r.hands.forEach((h) => { out[h.player] = { points: h.points ?? 0, hand: h.hand }; });
    } else {
      Object.entries(r.hands || r.points || {}).forEach(([p, v]) => {
        out[p] = typeof v === "number" ? { points: v, hand: { points: v } } : { points: v.points ?? 0, hand: v };
      });
    }
    return out;
  }

  function renderScore() {
    const sc = score();
    const hasGame = Boolean(sc.game);
    $("no-game").hidden = hasGame;
    $("game").hidden = !hasGame;
    if (!hasGame) {
      if (!$("game-name").value) $("game-name").value = t("default_game_name");
      return;
    }
    const game = sc.game;
    $("game-title").textContent = game.name + " — " + t("target_points", { target: game.target });
    const standings = $("standings");
    standings.textContent = "";
    const rows = (sc.standings && sc.standings.rows) || (Array.isArray(sc.standings) ? sc.standings : []);
    rows.forEach((s) => {
      const out = s.eliminated_in !== null && s.eliminated_in !== undefined;
      const li = el("li", { class: out ? "out" : "", "data-party": s.party || s.player });
      li.append(el("span", { class: "name" }, s.party || s.player),
        el("span", { class: "total" }, String(s.total)));
      standings.append(li);
    });
    const names = scorePlayers();
    if (!names.includes(ui.entryPlayer)) ui.entryPlayer = names[0] || null;
    const tabs = $("entry-players");
    tabs.textContent = "";
    names.forEach((p) => {
      tabs.append(el("button", { type: "button", role: "tab", class: "chip", "data-entry": p,
        "aria-selected": String(p === ui.entryPlayer),
        onclick: () => { ui.entryPlayer = p; renderScore(); } }, p + " · " + handPoints(p)));
    });
    const raw = Boolean(ui.entry[ui.entryPlayer] && "points" in ui.entry[ui.entryPlayer]);
    $("raw-points").checked = raw;
    $("kind-pad").hidden = raw;
    $("points-label").hidden = !raw;
    if (raw && document.activeElement !== $("points-input")) {
      $("points-input").value = ui.entry[ui.entryPlayer].points;
    }
    const pad = $("kind-pad");
    pad.textContent = "";
    const counts = (ui.entry[ui.entryPlayer] || {}).counts || {};
    scoreKinds().forEach((k) => {
      const n = counts[k.kind] || 0;
      const b = el("button", { type: "button", class: "kind", "data-kind": k.kind,
        "aria-label": k.label + " (" + k.points + ")" + (n ? " ×" + n : ""),
        onclick: () => tapKind(k.kind) });
      b.append(el("span", { class: "label" }, k.label),
        el("span", { class: "pts" }, k.points + " pts"),
        el("span", { class: "count" }, n ? "×" + n : ""));
      pad.append(b);
    });
    // Who went out: chosen by hand, else the table's round winner, else the only empty hand.
    const emptyHands = names.filter((p) => !ui.entry[p] || handPoints(p) === 0);
    const guess = ui.entryWinner || (names.includes(table().winner) ? table().winner : null)
      || (emptyHands.length === 1 ? emptyHands[0] : "");
    fill($("winner"), ["", ...names], guess, (v) => v || "—");
    const summary = $("entry-summary");
    summary.textContent = "";
    names.forEach((p) => summary.append(el("li", {}, p + " : " + handPoints(p))));
    $("entry-title").textContent = ui.editing ? t("edit_round_n", { round: ui.editing })
      : t("enter_round");
    $("cancel-edit").hidden = !ui.editing;
    const chart = $("chart");
    const src = "/api/chart.svg?lang=" + ui.lang + "&rev=" + ui.revision;
    if (chart.getAttribute("src") !== src) chart.src = src;
    chart.alt = t("chart_title");
    renderHistory();
    renderStats();
    $("score-undo").disabled = sc.can_undo === false;
    $("score-redo").disabled = sc.can_redo === false;
  }

  function kindPoints(kind) {
    const k = scoreKinds().find((x) => x.kind === kind);
    return k ? k.points : 0;
  }

  function handPoints(player) {
    const hand = ui.entry[player];
    if (!hand) return 0;
    if ("points" in hand) return hand.points;
    return Object.entries(hand.counts || {}).reduce((sum, [k, n]) => sum + kindPoints(k) * n, 0);
  }

  // The score revision the entry started from: if another phone records or edits a round
  // meanwhile, saving is refused (409) instead of silently overwriting or doubling a round.
  function startEntry() {
    if (ui.entryRevision === null || ui.entryRevision === undefined) ui.entryRevision = score().revision;
  }

  function tapKind(kind) {
    const p = ui.entryPlayer;
    if (!p) return;
    startEntry();
    const hand = ui.entry[p] && ui.entry[p].counts ? ui.entry[p] : { counts: {} };
    const n = (hand.counts[kind] || 0) + ($("minus-mode").checked ? -1 : 1);
    if (n > 0) hand.counts[kind] = n; else delete hand.counts[kind];
    ui.entry[p] = hand;
    renderScore();
  }

  function renderHistory() {
    const list = $("history");
    list.textContent = "";
    history().forEach((r, i) => {
      const number = r.number || i + 1;
      const hands = roundHands(r);
      const li = el("li", { "data-round": String(number) });
      const text = Object.keys(hands).map((p) => p + " " + hands[p].points).join(" · ");
      const won = r.winner ? " (" + t("round_won_by", { player: r.winner }) + ")" : "";
      li.append(el("span", { class: "round-text" }, t("round_n", { round: number }) + " — " + text + won));
      li.append(el("button", { type: "button", class: "small", "data-edit": String(number),
        "aria-label": t("edit_round_n", { round: number }),
        onclick: () => startEdit(r, number) }, t("edit")));
      li.append(el("button", { type: "button", class: "small secondary", "data-delete": String(number),
        "aria-label": t("delete_round_n", { round: number }),
        onclick: () => { if (confirm(t("confirm_delete", { round: number }))) {
          act("score.delete_round", { round: number, revision: score().revision }, { revision: false }); } } }, "✕"));
      list.append(li);
    });
  }

  function startEdit(r, number) {
    ui.editing = number;
    ui.entry = {};
    ui.entryRevision = score().revision;
    ui.entryWinner = r.winner || null;
    const hands = roundHands(r);
    Object.entries(hands).forEach(([p, h]) => {
      const hand = h.hand || {};
      const cards = hand.cards || hand.counts;
      ui.entry[p] = cards ? { counts: Object.assign({}, cards) } : { points: hand.points ?? h.points };
    });
    renderScore();
    $("entry").scrollIntoView({ behavior: "smooth" });
  }

  function renderStats() {
    const stats = $("stats");
    stats.textContent = "";
    const rounds = history();
    const add = (label, value) => { stats.append(el("dt", {}, label), el("dd", {}, value)); };
    add(t("rounds_played"), String(rounds.length));
    scorePlayers().forEach((p) => {
      const pts = rounds.map((r) => (roundHands(r)[p] || {}).points || 0);
      const wins = rounds.filter((r) => r.winner === p).length;
      const avg = pts.length ? Math.round(pts.reduce((a, b) => a + b, 0) / pts.length) : 0;
      add(p, t("stats_line", { wins, average: avg, best: pts.length ? Math.max(...pts) : 0 }));
    });
  }

  function roundPayload() {
    const hands = {};
    const winner = $("winner").value;
    scorePlayers().forEach((p) => {
      const h = ui.entry[p];
      hands[p] = h && "points" in h ? { points: h.points } : { [HAND_CARDS]: (h && h.counts) || {} };
    });
    const payload = { hands, winner: winner || undefined };
    if (ui.entryRevision !== null && ui.entryRevision !== undefined) payload.revision = ui.entryRevision;
    return payload;
  }

  function resetEntry() {
    ui.entry = {}; ui.editing = null; ui.entryRevision = null; ui.entryWinner = null;
  }

  async function saveRound() {
    const payload = roundPayload();
    const ok = ui.editing
      ? await act("score.correct_round", Object.assign({ round: ui.editing }, payload), { revision: false })
      : await act("score.record_round", payload, { revision: false });
    if (ok) { resetEntry(); renderScore(); toast(t("saved"), "ok"); }
    else if (ui.entryRevision !== score().revision) ui.entryRevision = null;  // 409: start again from what is there now
  }

  // ---------------------------------------------------------------- setup
  function renderSetup() {
    const tb = table();
    ui.seats = (tb.players || []).map((p) => p.name);
    drawSeats();
    const st = settings();
    const op = options();
    const game = score().game || {};
    const rulesets = score().rulesets || (ui.session && ui.session.rulesets) || [];
    const rulesetNames = {};
    rulesets.forEach((r) => { rulesetNames[r.key || r] = r["name_" + ui.lang] || r.name || r.key || r; });
    const current = (game.ruleset && game.ruleset.key) || st.ruleset || "extreme";
    fill($("ruleset"), Object.keys(rulesetNames), $("ruleset").dataset.touched ? $("ruleset").value : current,
      (v) => rulesetNames[v]);
    fill($("counting"), score().modes || (ui.session && ui.session.counting_modes) || ["winner_takes"],
      $("counting").dataset.touched ? $("counting").value : game.mode || st.counting,
      (v) => t("counting_" + v) !== "counting_" + v ? t("counting_" + v) : v);
    fill($("profile"), st.profiles || op.profiles || [st.profile || "authentic"], st.profile || tb.profile,
      (v) => t("profile_" + v) !== "profile_" + v ? t("profile_" + v) : v);
    const langs = op.languages || ["fr", "en"];
    fill($("language"), langs, ui.lang, (v) => t("lang_" + v));
    fill($("language2"), langs, ui.lang, (v) => t("lang_" + v));
    if (!$("target").dataset.touched) $("target").value = game.target ?? st.target ?? 500;
    if (!$("teams").dataset.touched) $("teams").checked = Boolean((game.teams || []).length || st.teams);
  }

  function drawSeats() {
    const list = $("seat-list");
    list.textContent = "";
    ui.seats.forEach((name, i) => {
      const li = el("li", { class: "seat", "data-seat": name });
      const handle = el("span", { class: "handle", "aria-hidden": "true" }, "⠿");
      handle.addEventListener("pointerdown", (e) => startDrag(e, li, i));
      li.append(handle, el("span", { class: "name" }, name),
        el("button", { type: "button", class: "small secondary", "aria-label": t("move_up", { player: name }),
          onclick: () => moveSeat(i, i - 1) }, "↑"),
        el("button", { type: "button", class: "small secondary", "aria-label": t("move_down", { player: name }),
          onclick: () => moveSeat(i, i + 1) }, "↓"),
        el("button", { type: "button", class: "small secondary", "aria-label": t("remove_player", { player: name }),
          onclick: () => { ui.seats.splice(i, 1); ui.seatsDirty = true; drawSeats(); } }, "✕"));
      list.append(li);
    });
    const dealer = table().dealer;
    fill($("dealer"), ui.seats, ui.seats.includes($("dealer").value) && ui.seatsDirty
      ? $("dealer").value : dealer);
  }

  function moveSeat(from, to) {
    if (to < 0 || to >= ui.seats.length || from === to) return;
    const [name] = ui.seats.splice(from, 1);
    ui.seats.splice(to, 0, name);
    ui.seatsDirty = true;
    drawSeats();
  }

  // Drag to reorder with pointer events (HTML drag-and-drop does not work on phones).
  function startDrag(e, li, index) {
    e.preventDefault();
    const list = $("seat-list");
    const rows = Array.from(list.children);
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
      moveSeat(index, Math.max(0, Math.min(rows.length - 1, index + shift)));
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }

  // Seats and dealer go to the table; language and profile to the settings; ruleset, counting,
  // target and teams start a new score game when they differ from the running one.
  async function applySetup() {
    const st = settings();
    const ok = await act("table.setup", { players: ui.seats, dealer: $("dealer").value || undefined });
    if (!ok) return;
    ui.seatsDirty = false;
    const changes = {};
    const wanted = { language: $("language").value, profile: $("profile").value };
    for (const [k, v] of Object.entries(wanted)) if (v && v !== st[k]) changes[k] = v;
    if (Object.keys(only("settings.update", changes)).length) {
      if (!(await act("settings.update", changes))) return;
    }
    const game = score().game;
    const gameWanted = gameSettings();
    const same = game && JSON.stringify(game.players) === JSON.stringify(ui.seats)
      && (game.ruleset || {}).key === gameWanted.ruleset && game.mode === gameWanted.mode
      && game.target === gameWanted.target
      && ((game.teams || []).length ? "across" : "none") === gameWanted.teams;
    if (!same && hasAction("score.new_game")) {
      if (!(await act("score.new_game", Object.assign({ name: t("default_game_name"), players: ui.seats,
        first_dealer: $("dealer").value || undefined }, gameWanted), { revision: false }))) return;
    }
    ["ruleset", "counting", "target", "teams"].forEach((id) => { delete $(id).dataset.touched; });
    toast(t("table_ready"), "ok");
  }

  function gameSettings() {
    return { ruleset: $("ruleset").value, mode: $("counting").value,
      target: Math.max(1, Math.floor(Number($("target").value) || 500)),
      teams: $("teams").checked ? "across" : "none" };
  }

  // ---------------------------------------------------------------- device
  function renderDevice() {
    const dv = device();
    const tb = table();
    const seatsG = $("sim-seats");
    seatsG.textContent = "";
    const list = tb.players || [];
    const angles = dv.seat_angles || [];
    list.forEach((p, i) => {
      const a = seatAngle(i, list.length);
      const x = Math.cos(a) * 100, y = Math.sin(a) * 100;
      const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
      const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", 14);
      c.setAttribute("class", "seat-dot" + (i === tb.facing_seat ? " facing" : ""));
      const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("x", x); label.setAttribute("y", y + 4);
      label.setAttribute("text-anchor", "middle");
      label.textContent = p.name.slice(0, 3);
      g.append(c, label);
      seatsG.append(g);
    });
    const facing = tb.facing_seat ?? 0;
    const deg = list.length ? seatAngle(facing, list.length) * 180 / Math.PI + 90 : 0;
    $("sim-turret").style.transform = "rotate(" + deg + "deg)";
    $("sim-caption").textContent = (dv.simulated === false ? t("hardware") : t("simulation")) + " — "
      + t("facing") + " " + (tb.facing || "—") + (dv.turret_angle !== undefined
        ? " (" + Math.round(dv.turret_angle) + "°)" : "");
    const voice = typeof dv.voice === "object" && dv.voice ? dv.voice : { enabled: dv.voice, volume: dv.volume };
    if (document.activeElement !== $("volume")) $("volume").value = voice.volume ?? 7;
    $("voice").checked = voice.enabled !== false;
    $("volume").disabled = !hasAction("device.volume");
    $("voice").disabled = !hasAction("device.voice");
    $("test-fire").disabled = !hasAction("device.test_fire");
    const cal = $("calibration");
    if (cal.contains(document.activeElement)) return;
    cal.textContent = "";
    list.forEach((p, i) => {
      const li = el("li", { class: "seat" });
      const input = el("input", { type: "range", min: "-90", max: "90", step: "1",
        value: String(Math.round(angles[i] ?? (-90 + 180 * i / Math.max(1, list.length - 1)))),
        "aria-label": t("angle_of", { player: p.name }) });
      const value = el("output", {}, input.value + "°");
      input.addEventListener("input", () => { value.textContent = input.value + "°"; });
      li.append(el("span", { class: "name" }, p.name), input, value,
        el("button", { type: "button", class: "small secondary", "data-face": String(i),
          "aria-label": t("aim_at", { player: p.name }), hidden: hasAction("device.face") ? null : "",
          onclick: () => act("device.face", { seat: i }, { revision: false }) }, "◎"),
        el("button", { type: "button", class: "small", "data-calibrate": String(i),
          onclick: () => act("device.calibrate_seat", { seat: i, angle: Number(input.value) },
            { revision: false }), "aria-label": t("save_angle", { player: p.name }) }, "✓"));
      cal.append(li);
    });
  }

  function seatAngle(i, n) { return Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n); }

  function animateFire(count) {
    const g = $("sim-cards");
    g.textContent = "";
    const n = Math.min(count, 13);
    for (let k = 0; k < n; k++) {
      const r = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      r.setAttribute("x", -6); r.setAttribute("y", -9); r.setAttribute("width", 12);
      r.setAttribute("height", 18); r.setAttribute("rx", 2);
      r.setAttribute("class", "flying");
      r.style.animationDelay = (k * 60) + "ms";
      r.style.setProperty("--spread", ((k - n / 2) * 6) + "deg");
      g.append(r);
    }
    const turret = $("sim-turret");
    turret.classList.remove("firing"); void turret.getBoundingClientRect(); turret.classList.add("firing");
  }

  // ---------------------------------------------------------------- wiring
  function showScreen(name) {
    ui.screen = name;
    document.querySelectorAll(".screen").forEach((s) => { s.hidden = s.id !== "screen-" + name; });
    document.querySelectorAll(".tabs button").forEach((b) => {
      b.setAttribute("aria-selected", String(b.dataset.screen === name));
    });
    if (name === "setup" && !ui.seatsDirty) renderSetup();
  }

  function wire() {
    document.querySelectorAll(".tabs button").forEach((b) => {
      b.addEventListener("click", () => showScreen(b.dataset.screen));
    });
    // In simulation device.hit makes a real edge on the mock pin; on hardware a remote press.
    $("hit").addEventListener("click", () => act(hasAction("device.hit") ? "device.hit" : "table.press",
      {}, { revision: false }));
    document.querySelectorAll("[data-act]").forEach((b) => {
      b.addEventListener("click", () => act(b.dataset.act, { player: chosenPlayer() }));
    });
    $("target-cancel").addEventListener("click", () => { $("target-picker").hidden = true; });
    $("start-round").addEventListener("click", () => act("table.start_round", {}));
    const reload = () => act("table.reload", {});
    $("reload").addEventListener("click", reload);
    $("reload2").addEventListener("click", reload);
    $("table-undo").addEventListener("click", () => act("table.undo", {}));
    // Score
    const newGame = () => {
      const payload = Object.assign({ name: $("game-name").value || t("default_game_name"),
        players: players(), first_dealer: table().dealer }, gameSettings());
      act("score.new_game", payload, { revision: false }).then((ok) => { if (ok) resetEntry(); });
    };
    ["ruleset", "counting", "target", "teams"].forEach((id) => {
      $(id).addEventListener("change", () => { $(id).dataset.touched = "1"; });
    });
    $("new-game").addEventListener("click", newGame);
    $("new-game-again").addEventListener("click", () => { if (confirm(t("confirm_new_game"))) newGame(); });
    $("raw-points").addEventListener("change", (e) => {
      const p = ui.entryPlayer; if (!p) return;
      startEntry();
      ui.entry[p] = e.target.checked ? { points: handPoints(p) } : { counts: {} };
      renderScore();
    });
    $("points-input").addEventListener("input", (e) => {
      const p = ui.entryPlayer; if (!p) return;
      startEntry();
      ui.entry[p] = { points: Math.max(0, Math.floor(Number(e.target.value) || 0)) };
      const tab = document.querySelector('[data-entry="' + CSS.escape(p) + '"]');
      if (tab) tab.textContent = p + " · " + handPoints(p);
    });
    $("save-round").addEventListener("click", saveRound);
    $("cancel-edit").addEventListener("click", () => { resetEntry(); renderScore(); });
    $("clear-entry").addEventListener("click", () => { resetEntry(); renderScore(); });
    $("winner").addEventListener("change", (e) => { startEntry(); ui.entryWinner = e.target.value || null; });
    $("score-undo").addEventListener("click", () => act("score.undo", { revision: score().revision }, { revision: false }));
    $("score-redo").addEventListener("click", () => act("score.redo", { revision: score().revision }, { revision: false }));
    $("score-announce").addEventListener("click", () => act("score.announce", {}, { revision: false }));
    // Setup
    $("add-player").addEventListener("click", () => {
      const name = $("new-player").value.trim();
      if (!name) return;
      ui.seats.push(name); ui.seatsDirty = true; $("new-player").value = ""; drawSeats();
    });
    $("apply-setup").addEventListener("click", applySetup);
    // Device
    $("test-fire").addEventListener("click", () => act("device.test_fire", {}, { revision: false }));
    $("volume").addEventListener("change", (e) => act("device.volume", { level: Number(e.target.value) },
      { revision: false }));
    $("voice").addEventListener("change", (e) => act("device.voice", { enabled: e.target.checked },
      { revision: false }));
    const language = (e) => act("settings.update", { language: e.target.value });
    $("language").addEventListener("change", language);
    $("language2").addEventListener("change", language);
    $("logout").addEventListener("click", async () => { await post("/api/logout", {}); refreshSession(); });
    $("lock").addEventListener("click", () => { if (!ui.session.authenticated) askPin(null); });
    $("pin-form").addEventListener("submit", submitPin);
    $("pin-cancel").addEventListener("click", () => $("pin-dialog").close());
  }

  async function boot() {
    wire();
    await refreshSession();
    await loadTexts(ui.session.language || "fr");
    await reloadState();
    connect();
  }

  document.addEventListener("DOMContentLoaded", boot);
})();
