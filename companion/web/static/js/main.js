// The phone page of uno-companion: ES modules, no framework, no build step, nothing from a CDN.
// Every phone at the table runs this; the box sends each change to all of them live (SSE).
// This module builds the screens listed in screens/index.js, their tabs and the header.

import { $, el, fill, toast } from "./dom.js";
import { wirePin } from "./components/pin.js";
import {
  choosePhoneLanguage, connect, device, loadTexts, onChange, onConnection, onTexts, refreshSession, reloadState,
  store, t, table, translate, wantedLanguage,
} from "./store.js";
import screens from "./screens/index.js";
import { loadCues, soundFor, speakNew } from "./sound.js";
import { loadCards } from "./components/deck.js";

let current = screens[0].id;

function build() {
  const main = $("screens");
  const tabs = $("tabs");
  screens.forEach((screen) => {
    const section = el("section", { id: "screen-" + screen.id, class: "screen",
      "aria-labelledby": screen.tab ? "tab-" + screen.id : null });
    section.innerHTML = screen.markup;  // static markup from the module, never user data
    section.hidden = screen.id !== current;
    main.append(section);
    if (screen.tab) {
      tabs.append(el("button", { type: "button", role: "tab", id: "tab-" + screen.id,
        "data-i18n": screen.tab, "aria-selected": String(screen.id === current),
        "aria-controls": "screen-" + screen.id, onclick: () => show(screen.id) }));
    }
  });
  tabs.style.setProperty("--tabs", String(tabs.childElementCount));
  // The header's and tab bar's heights, for the screens that fill what is left (the Table).
  const measure = () => {
    const root = document.documentElement.style;
    root.setProperty("--top-h", document.querySelector(".top").offsetHeight + "px");
    root.setProperty("--tabs-h", tabs.offsetHeight + "px");
  };
  new ResizeObserver(measure).observe(tabs);
  new ResizeObserver(measure).observe(document.querySelector(".top"));
  translate(document);
  screens.forEach((screen) => screen.wire(show));
}

function show(id) {
  const leaving = screens.find((screen) => screen.id === current);
  if (leaving && leaving.id !== id && leaving.hidden) leaving.hidden();
  current = id;
  screens.forEach((screen) => {
    $("screen-" + screen.id).hidden = screen.id !== id;
    const tab = $("tab-" + screen.id);
    if (tab) tab.setAttribute("aria-selected", String(screen.id === id));
  });
  // Only the open screen follows the table (see renderAll): bring this one up to date first.
  const opened = screens.find((screen) => screen.id === id);
  if (opened.shown) opened.shown();
  if (store.state) opened.render();
  // A screen opens at its top (the Table's players and pad too), not where another was left.
  window.scrollTo(0, 0);
  $("screen-" + id).querySelectorAll(".table-scroll").forEach((box) => { box.scrollTop = 0; });
  // The address names the screen (/#score), so a reload or a bookmark opens it again.
  const hash = id === screens[0].id ? "" : "#" + id;
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + hash);
}

function renderHeader() {
  const session = store.session;
  if (session) {
    $("lock").hidden = !session.pin_required;
    $("lock").textContent = session.authenticated ? t("pin_ok") : t("pin_enter");
  }
  const langs = (session && session.languages) || ["fr", "en"];
  document.querySelectorAll("select.language").forEach((select) => {
    if (document.activeElement !== select) fill(select, langs, store.lang, (v) => t("lang_" + v));
  });
}

// Live, paused (no stream to spare: the page reads the state every few seconds) or offline.
function renderLive() {
  const connection = store.connection;
  $("live").textContent = { live: t("live"), paused: t("live_paused") }[connection] || t("offline");
  $("live").className = { live: "live on", paused: "live paused" }[connection] || "live";
}

// Every change redraws the header and the open screen only: a phone left on the table screen
// does not rebuild the score sheet, nor fetch a new chart from the box, at every press.
function renderAll() {
  renderHeader();
  screens.find((screen) => screen.id === current).render();
  // The box has no sound card: said once, whichever screen is open (the device screen says why).
  if ((device().voice || {}).sound_problem && !soundNoticeSaid) {
    soundNoticeSaid = true;
    toast(t("no_sound_card_toast"));  // short: whole within the toast's two lines
  }
  const happened = store.happened;
  if (happened && happened.revision !== heard) {
    heard = happened.revision;
    soundFor(happened, table().suspense);
  }
  speakNew(store.state && store.state.spoken, store.lang);
}
let heard = -1;
let soundNoticeSaid = false;

async function boot() {
  build();
  wirePin();
  document.querySelectorAll("select.language").forEach((select) => {
    select.addEventListener("change", () => choosePhoneLanguage(select.value));
  });
  onChange(renderAll);
  onTexts(renderLive);
  onConnection(renderLive);
  // The session (which names the language) and the card table at once, then the state.
  await Promise.all([
    refreshSession().then(() => loadTexts(wantedLanguage(store.session.language))),
    loadCards(),
  ]);
  await reloadState();
  connect();
  loadCues();
  const wanted = location.hash.slice(1);
  if (screens.some((screen) => screen.id === wanted)) show(wanted);
}

boot();
