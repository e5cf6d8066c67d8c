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
