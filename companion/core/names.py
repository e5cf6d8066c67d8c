"""Names as people see them: what a name may hold, and when two names are the same.

A name is read off a phone's screen and spoken by the box, so it must look like what it is:

- no invisible format characters (Unicode category Cf: a zero-width space, a soft hyphen) and no
  bidirectional controls (``\\u202eecilA`` would show as "Alice"); the zero-width joiners that
  build emoji (👨‍👩‍👧) and Persian or Indic words stay allowed;
- at most :data:`MAX_MARKS` combining marks on one letter (accents stacked 39 high cover the
  lines around them);
- something visible: not only spaces, joiners and marks.

Two names are the same when they show the same: :func:`shown_key` folds case, compatibility forms
(a full-width "Ｂｏｂ" is "Bob") and runs of spaces.
"""

from __future__ import annotations

import unicodedata

from .errors import ActionError
from .limits import MAX_NAME

MAX_MARKS = 4  # combining marks in a row: Vietnamese stacks two, Hebrew pointing three
# Format characters that build what is shown rather than hide or reorder it: zero-width
# non-joiner and joiner (Persian, Indic scripts, emoji sequences) and the tags of the flags of
# regions (🏴 + tag letters).
JOINERS = frozenset("\u200c\u200d")
TAGS = range(0xE0020, 0xE0080)
_INVISIBLE = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp", "Cc"})


def name_problem(text: str) -> tuple[str, str] | None:
    """Why ``text`` cannot be shown as typed (a catalog key of ``input.*`` and the offending
    character as ``U+XXXX``), or ``None`` when it can."""
    marks = 0
    visible = False
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cf" and ch not in JOINERS and ord(ch) not in TAGS:
            return "input.bad_text", f"U+{ord(ch):04X}"
        if category in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                return "input.stacked_marks", f"U+{ord(ch):04X}"
        else:
            marks = 0
        visible = visible or category not in _INVISIBLE
    if text and not visible:
        return "input.invisible", ""
    return None


def shown_key(name: str) -> str:
    """What ``name`` looks like, for telling names apart: two names with the same key are one."""
    folded = unicodedata.normalize("NFKC", name)
    folded = "".join(ch for ch in folded if ch not in JOINERS and ord(ch) not in TAGS)
    return " ".join(folded.split()).casefold()


def check_name(name: str) -> None:
    """Refuses (:class:`ActionError` ``bad_name``) a player name that is empty or too long."""
    if not name or len(name) > MAX_NAME:
        raise ActionError(
            "bad_name", f"a player name needs 1 to {MAX_NAME} characters", {"name": name}
        )
