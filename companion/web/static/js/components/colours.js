// Players' colours: one of eight Okabe-Ito colours (told apart with the common colour-vision
// deficiencies), chosen at setup and shared by every phone (state.page.colours); the chart uses
// the same palette. CSS classes pc0..pc7 give each a shade readable on the light and dark page.

import { store, table } from "../store.js";

export const PALETTE_SIZE = 8;

/** The first palette index not in `taken` (a ninth player shares the least used one). */
export function freeColour(taken) {
  const used = new Array(PALETTE_SIZE).fill(0);
  taken.forEach((c) => { if (Number.isInteger(c)) used[c % PALETTE_SIZE] += 1; });
  const least = Math.min(...used);
  return used.indexOf(least);
}

/** The palette index of a player: the one chosen at setup, else the first one nobody at the
 * table has (seat by seat), so two players never share a colour by default. */
export function colourOf(name) {
  const chosen = (store.state && store.state.page && store.state.page.colours) || {};
  if (Number.isInteger(chosen[name])) return chosen[name];
  const names = (table().players || []).map((p) => p.name);
  const taken = names.filter((n) => Number.isInteger(chosen[n])).map((n) => chosen[n]);
  for (const other of names) {
    if (Number.isInteger(chosen[other])) continue;
    const colour = freeColour(taken);
    if (other === name) return colour;
    taken.push(colour);
  }
  return freeColour(taken);
}

/** Set a node's player colour class (pc0..pc7), removing the previous one. */
export function paint(node, name) {
  for (let i = 0; i < PALETTE_SIZE; i++) node.classList.remove("pc" + i);
  if (name) node.classList.add("pc" + colourOf(name));
}
