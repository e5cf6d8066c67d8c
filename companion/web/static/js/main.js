// The phone page of uno-companion: ES modules, no framework, no build step, nothing from a CDN.
// Every phone at the table runs this; the box sends each change to all of them live (SSE).
// This module builds the screens listed in screens/index.js, their tabs and the header.

import { $, el, fill } from "./dom.js";
import { wirePin } from "./components/pin.js";
import {
  act, connect, loadTexts, onChange, onConnection, onTexts, refreshSession, reloadState, store, t,
  translate,
} from "./store.js";
import screens from "./screens/index.js";

let current = screens[0].id;

function build() {
  const main = $("screens");
  const tabs = $("tabs");
  tabs.style.setProperty("--tabs", String(screens.length));
  screens.forEach((screen) => {
    const section = el("section", { id: "screen-" + screen.id, class: "screen",
      "aria-labelledby": "tab-" + screen.id });
    section.innerHTML = screen.markup;  // static markup from the module, never user data
    section.hidden = screen.id !== current;
    main.append(section);
    tabs.append(el("button", { type: "button", role: "tab", id: "tab-" + screen.id,
      "data-i18n": screen.tab, "aria-selected": String(screen.id === current),
      onclick: () => show(screen.id) }));
  });
  translate(document);
  screens.forEach((screen) => screen.wire());
}

function show(id) {
  current = id;
  screens.forEach((screen) => {
    $("screen-" + screen.id).hidden = screen.id !== id;
    $("tab-" + screen.id).setAttribute("aria-selected", String(screen.id === id));
    if (screen.id === id && screen.shown) screen.shown();
  });
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

function renderLive() {
  $("live").textContent = store.online ? t("live") : t("offline");
  $("live").className = store.online ? "live on" : "live";
}

function renderAll() {
  renderHeader();
  screens.forEach((screen) => screen.render());
}

async function boot() {
  build();
  wirePin();
  document.querySelectorAll("select.language").forEach((select) => {
    select.addEventListener("change", () => act("settings.update", { language: select.value }));
  });
  onChange(renderAll);
  onTexts(renderLive);
  onConnection(renderLive);
  await refreshSession();
  await loadTexts(store.session.language || "fr");
  await reloadState();
  connect();
}

boot();
