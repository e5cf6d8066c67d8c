// The calls that can be made now, just above HIT where the thumb already is (never in the part
// that scrolls): "Jérôme a fini ! Compter les mains" when the box counts a hand at 0, "UNO !" big
// on the phone of the player down to one card, and Contre-UNO for the others while the rules
// allow it: a quiet button during the grace the rules leave to say UNO, then a plain one.
//
// The grace (house rule contre_uno_grace, seconds): the Mattel text (000 §VI) asks for UNO
// "immédiatement" when the second-to-last card is laid and lets Contre-UNO be called until the
// next player has played, so a short grace (3 s by default) is left first; the older sheet (001,
// "Pour terminer") wants UNO said before the card touches the pile: a grace of 0.

import { el, toast } from "../dom.js";
import { act, t, table } from "../store.js";
import { gameOver } from "./flow.js";
import { rules } from "./deck.js";
import { me } from "./me.js";

export const callsMarkup = `<div id="calls" class="calls" role="group" data-i18n-label="calls_now" hidden></div>`;

const window_ = { player: null, since: 0, timer: 0 };

/** The round ends for `player` (the box counts their hand at 0); one tap undoes it. */
export async function endRound(player) {
  if (await act("table.round_won", { player })) {
    toast(t("round_ended", { player }), "ok", { label: t("undo"), run: () => act("table.undo", {}) });
  }
}

/** Whether the grace to say UNO is still running for `player` (redraw with `again` after it). */
function inGrace(player, again) {
  const grace = Math.max(0, Number(rules().contre_uno_grace ?? 3)) * 1000;
  if (window_.player !== player) {
    window_.player = player;
    window_.since = performance.now();
    clearTimeout(window_.timer);
    if (grace) window_.timer = setTimeout(again, grace + 50);
  }
  return performance.now() - window_.since < grace;
}

export function renderCalls(box, again) {
  const tb = table();
  box.textContent = "";
  if (gameOver() || tb.round_over) { box.hidden = true; return; }
  const out = tb.round_may_be_over;
  if (out) {
    box.append(el("button", { type: "button", id: "end-round", class: "primary call-big",
      "data-player": out, onclick: () => endRound(out) }, t("went_out", { player: out })));
  }
  const mine = me();
  const window = tb.contre_uno_window;
  if (window_.player && window_.player !== window) window_.player = null;
  (tb.players || []).filter((p) => p.hand === 1 && !p.uno && !p.eliminated).forEach((p) => {
    if (p.name === mine) {
      box.prepend(el("button", { type: "button", class: "primary call-big", "data-uno": p.name,
        onclick: () => act("table.call_uno", { player: p.name }) }, t("uno_mine")));
      return;
    }
    if (!mine) {  // a shared phone: UNO for whoever is down to one card
      box.append(el("button", { type: "button", class: "secondary", "data-uno": p.name,
        onclick: () => act("table.call_uno", { player: p.name }) }, t("uno_for", { player: p.name })));
    }
    if (window !== p.name) return;  // the next player has played: too late (000 §VI)
    const quiet = inGrace(p.name, again);
    box.append(el("button", { type: "button", "data-contre-uno": p.name,
      class: quiet ? "secondary quiet" : "primary",
      onclick: () => act("table.contre_uno", { player: p.name }) },
    t("contre_uno_for", { player: p.name })));
  });
  box.hidden = !box.childElementCount;
}
