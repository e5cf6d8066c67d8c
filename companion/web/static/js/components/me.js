// Whose phone this is: a player's name kept in this browser only (never sent to the box). The
// round's count opens that player's hand first, and the player on one card sees "UNO !" first
// on their own phone. A phone passed around the table belongs to nobody.

const ME = "uno.me";

/** The player this phone belongs to, or "" when it is shared. */
export function me() {
  try { return localStorage.getItem(ME) || ""; } catch (e) { return ""; }
}

/** Say whose phone this is ("" for a shared phone). */
export function setMe(name) {
  try {
    if (name) localStorage.setItem(ME, name); else localStorage.removeItem(ME);
  } catch (e) { /* private mode: this visit only */ }
}

/** A player renamed at the table (same seat, a new name): a phone that was theirs stays theirs. */
export function followRename(before, after) {
  const mine = me();
  const names = (players) => (players || []).map((p) => p.name);
  const was = names(before);
  const now = names(after);
  const seat = was.indexOf(mine);
  if (!mine || seat < 0 || now.includes(mine) || was.length !== now.length) return;
  if (!was.includes(now[seat])) setMe(now[seat]);
}
