// The deck on the table, read from the box's card table (GET /api/cards, fetched once): which
// cards the table's deck holds, on which side, their labels, the colours and numbers in play.
// The page keeps no card list of its own: a new deck on the box is a new deck here.

import { store, t, table } from "../store.js";

export async function loadCards() {
  const r = await fetch("/api/cards");
  if (r.ok) store.cards = await r.json();
}

const cardList = () => (store.cards && store.cards.cards) || [];

/** The card table's entry for `key`, or undefined. */
export function card(key) { return cardList().find((c) => c.key === key); }

/** The table's house rules: the defaults with the table's own changes over them. */
export function rules() {
  const out = {};
  ((store.cards && store.cards.rules) || []).forEach((r) => { out[r.name] = r.default; });
  return Object.assign(out, table().rules || {});
}

/** Whether the table's deck holds `c` (the Extrême deck's optional cards need their option). */
export function inDeck(c, current) {
  const r = current || rules();
  if (!c.decks.includes(r.deck)) return false;
  return !(c.option && r.deck === "extreme") || Boolean(r[c.option]);
}

/** The cards that can be played now: in the deck and on the side in play. */
export function playable() {
  const r = rules();
  const side = table().side || "";
  return cardList().filter((c) => inDeck(c, r) && (!c.side || !side || c.side === side));
}

export function cardLabel(key) {
  const c = card(key);
  if (!c) return key;
  return store.lang === "en" ? c.label_en : c.label_fr;
}

/** A card's name with its colour, as the box names cards ("Passer rouge", "red Skip"): `what` is
 * its label or a number card's figure; a colourless card (a wild) is its label alone. */
export function cardName(what, colour) {
  return colour ? t("card_in_colour", { card: what, colour_key: colour }) : what;
}

/** The colours in play: UNO Flip's dark side has its own four (rule book 000 §XI.A). */
export function colours() {
  const all = (store.cards && store.cards.colours) || { light: [] };
  return (table().side === "dark" && all.dark) || all.light;
}

/** The lowest number card of the deck (the box says: Extrême and Flip have no 0). */
export function lowestNumber() { return table().lowest_number ?? 0; }
