// ICU-style messages, as the box writes them (companion/i18n/message.py, the same grammar):
// {name}, {name!r}, {n, plural, =0 {…} one {# carte} other {# cartes}} with the browser's
// Intl.PluralRules, {key, select, a {…} other {…}}, a select on X_elision read from X
// ("vowel" when X starts with a vowel's letter or an h) for French elision, and {items, list}:
// texts joined with the language's "and" by the browser's Intl.ListFormat (CLDR's patterns, as
// Babel's on the box). Apostrophes as ICU's: '' is one, an apostrophe before { } (or # in a
// plural case) quotes up to the next one.

// An h elides too: the names a table sees start with a mute h (Hélène, Hugo), not an aspirated one.
const ELIDING = new Set(["a", "e", "i", "o", "u", "æ", "œ", "h"]);
// The catalog's English is British, so its lists are too ("a, b and c").
const LIST_LOCALES = { en: "en-GB" };
const ELISION = "_elision";
const parsed = new Map();
const rules = new Map();
const lists = new Map();

/** "vowel" when `word` starts with a vowel's letter or an h (accents aside), else "other". */
export function elision(word) {
  const first = String(word).trim().normalize("NFD").toLowerCase().charAt(0);
  return ELIDING.has(first) ? "vowel" : "other";
}

/** `items` (an array of texts) joined with `lang`'s "and". */
export function joined(items, lang) {
  if (!Array.isArray(items)) throw new Error("a list is needed, not " + items);
  if (!lists.has(lang)) {
    lists.set(lang, new Intl.ListFormat(LIST_LOCALES[lang] || lang, { type: "conjunction" }));
  }
  return lists.get(lang).format(items.map(String));
}

function parseMessage(text) {
  let at = 0;
  const fail = (why) => new Error(why + " at " + at + " in " + text);
  const space = () => { while (at < text.length && /\s/.test(text[at])) at++; };
  const word = () => {
    space();
    const start = at;
    while (at < text.length && /[\p{L}\p{N}_=:-]/u.test(text[at])) at++;
    if (start === at) throw fail("a name is missing");
    return text.slice(start, at);
  };
  const expect = (c) => { space(); if (text[at] !== c) throw fail(c + " expected"); at++; };

  function message(inPlural, nested) {
    const parts = [];
    let buf = "";
    const flush = () => { if (buf) { parts.push(buf); buf = ""; } };
    while (at < text.length) {
      const c = text[at];
      if (c === "'") {
        const next = text[at + 1];
        if (next === "'") { buf += "'"; at += 2; } else if (next === "{" || next === "}"
            || (inPlural && next === "#")) {
          let end = at + 1;
          for (;;) {
            end = text.indexOf("'", end);
            if (end < 0) throw fail("unclosed quote");
            if (text[end + 1] === "'") { end += 2; continue; }
            break;
          }
          buf += text.slice(at + 1, end).replaceAll("''", "'");
          at = end + 1;
        } else { buf += "'"; at++; }
      } else if (c === "{") {
        flush();
        at++;
        parts.push(argument());
      } else if (c === "}") {
        if (!nested) throw fail("unmatched }");
        break;
      } else if (c === "#" && inPlural) {
        flush();
        parts.push({ hash: true });
        at++;
      } else { buf += c; at++; }
    }
    flush();
    return parts;
  }

  function argument() {
    const name = word();
    const quoted = text.startsWith("!r", at);
    if (quoted) at += 2;
    space();
    if (text[at] === "}") { at++; return { name, quoted }; }
    expect(",");
    const kind = word();
    if (kind === "list") { expect("}"); return { name, list: true }; }
    if (kind !== "plural" && kind !== "select") throw fail("unknown argument type " + kind);
    expect(",");
    let offset = 0;
    const cases = new Map();
    for (;;) {
      space();
      if (text[at] === "}") { at++; break; }
      const key = word();
      if (kind === "plural" && key.startsWith("offset:")) { offset = Number(key.slice(7)); continue; }
      expect("{");
      cases.set(key, message(kind === "plural", true));
      expect("}");
    }
    if (!cases.has("other")) throw fail(name + ": an 'other' case is needed");
    return { name, kind, cases, offset };
  }

  return message(false, false);
}

function parse(text) {
  if (!parsed.has(text)) parsed.set(text, parseMessage(text));
  return parsed.get(text);
}

function category(lang, n) {
  if (!rules.has(lang)) rules.set(lang, new Intl.PluralRules(lang));
  return rules.get(lang).select(Math.abs(n));
}

function render(parts, lang, params, number) {
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else if (part.hash) out += String(number);
    else if (part.list) {
      if (!(part.name in params)) throw new Error("argument " + part.name + " missing");
      out += joined(params[part.name], lang);
    } else if (!part.kind) {
      if (!(part.name in params)) throw new Error("argument " + part.name + " missing");
      const value = params[part.name];
      out += part.quoted ? "'" + String(value) + "'" : String(value);
    } else out += choose(part, lang, params);
  }
  return out;
}

function choose(part, lang, params) {
  const name = part.name;
  if (part.kind === "select") {
    let key;
    if (name in params) key = String(params[name]);
    else if (name.endsWith(ELISION) && name.slice(0, -ELISION.length) in params) {
      key = elision(params[name.slice(0, -ELISION.length)]);
    } else throw new Error("argument " + name + " missing");
    return render(part.cases.get(key) || part.cases.get("other"), lang, params);
  }
  let value = params[name];
  if (typeof value === "string" && /^-?\d+$/.test(value)) value = Number(value);
  if (!Number.isInteger(value)) throw new Error("argument " + name + " must be a whole number");
  const n = value - part.offset;
  const chosen = part.cases.get("=" + value) || part.cases.get(category(lang, n))
    || part.cases.get("other");
  return render(chosen, lang, params, n);
}

/** `text` with `params` put in, in `lang`'s plural rules; throws on a bad message. */
export function formatMessage(text, lang, params) {
  return render(parse(text), lang, params || {});
}
