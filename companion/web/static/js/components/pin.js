// The PIN dialog: shown when the box answers 401 (a PIN is set and this phone has not entered it).

import { $ } from "../dom.js";
import { post, refreshSession, setPinPrompt, store } from "../store.js";

let retry = null;

function ask(then) {
  retry = then;
  $("pin-error").textContent = "";
  $("pin-input").value = "";
  $("pin-dialog").showModal();
  $("pin-input").focus();
}

async function submit(ev) {
  ev.preventDefault();
  try {
    await post("/api/login", { pin: $("pin-input").value });
    $("pin-dialog").close();
    await refreshSession();
    const then = retry; retry = null;
    if (then) then();
  } catch (err) {
    $("pin-error").textContent = err.message;
  }
}

export function wirePin() {
  setPinPrompt(ask);
  $("pin-form").addEventListener("submit", submit);
  $("pin-cancel").addEventListener("click", () => $("pin-dialog").close());
  $("lock").addEventListener("click", () => { if (!store.session.authenticated) ask(null); });
}

export { ask as askPin };
