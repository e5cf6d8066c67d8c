// Shared DOM helpers. User data only ever goes in with textContent (never innerHTML).

export const $ = (id) => document.getElementById(id);

const SVG_NS = "http://www.w3.org/2000/svg";

/** An element with attributes (`class`, `on<event>` handlers, others as attributes) and text. */
export function el(tag, attrs, text) {
  return fillNode(document.createElement(tag), attrs, text);
}

/** The same for an SVG element. */
export function svg(tag, attrs, text) {
  return fillNode(document.createElementNS(SVG_NS, tag), attrs, text);
}

function fillNode(node, attrs, text) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v === null || v === undefined) continue;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Replace a <select>'s options; `label(value)` gives each option's text. */
export function fill(select, values, current, label) {
  select.textContent = "";
  values.forEach((v) => {
    const o = el("option", { value: v }, label ? label(v) : v);
    if (v === current) o.selected = true;
    select.append(o);
  });
}

/**
 * A short message over the page's header, never over the play area ("error" or "ok").
 * `action` ({label, run}) adds one button (e.g. Undo) and keeps the message up longer.
 */
export function toast(message, kind, action) {
  const box = $("toast");
  box.textContent = "";
  box.append(el("span", { class: "toast-text" }, message));
  if (action) {
    box.append(el("button", { type: "button", class: "small toast-action", onclick: () => {
      box.hidden = true;
      action.run();
    } }, action.label));
  }
  box.className = "toast " + (kind || "error");
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, action ? 10000 : 4000);
}

/**
 * Take back an Undo still offered: this phone's next action makes it refer to something that is
 * no longer its last change, and a tap meant for the new message must not undo the old one.
 */
export function withdrawUndo() {
  const box = $("toast");
  if (!box.hidden && box.querySelector(".toast-action")) {
    box.hidden = true;
    clearTimeout(toast.timer);
  }
}

/** Restart a CSS animation class on an element. */
export function replay(node, cls) {
  node.classList.remove(cls);
  void node.getBoundingClientRect();
  node.classList.add(cls);
}
