// Players' colours: one of eight Okabe-Ito colours (told apart with the common colour-vision
// deficiencies), chosen at setup and shared by every phone (state.page.colours); the chart uses
// the same palette. CSS classes pc0..pc7 give each a shade readable on the light and dark page.

import { store, table } from "../store.js";

export const PALETTE_SIZE = 8;

/** The palette index of a player: the one chosen at setup, else their seat's. */
export function colourOf(name) {
  const chosen = store.state && store.state.page && store.state.page.colours;
  if (chosen && Number.isInteger(chosen[name])) return chosen[name];
  const seat = (table().players || []).findIndex((p) => p.name === name);
  return (seat < 0 ? 0 : seat) % PALETTE_SIZE;
}

/** Set a node's player colour class (pc0..pc7), removing the previous one. */
export function paint(node, name) {
  for (let i = 0; i < PALETTE_SIZE; i++) node.classList.remove("pc" + i);
  if (name) node.classList.add("pc" + colourOf(name));
}
