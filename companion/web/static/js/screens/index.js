// The page's screens, in tab order. A screen is one module whose default export is
//   { id, tab, markup, wire(show), render(), shown()?, hidden()? }
// id: the section is #screen-<id> and its tab #tab-<id>; tab: the i18n key of the tab's label, or
// null for a screen without a tab (opened with show(id) or the address #<id>); markup: the
// section's static HTML (texts as data-i18n keys, no user data); wire(show): called once after the
// markup is in the page, `show(id)` opens another screen; render(): when it is opened and after
// every state or language change while it is open (hidden screens are not redrawn); shown() /
// hidden(): when it is opened (before render) / left. Adding a screen is one new module and one
// line here.

import table from "./table.js";
import score from "./score.js";
import setup from "./setup.js";
import device from "./device.js";
import evening from "./evening.js";
import display from "./display.js";
import rules from "./rules.js";
import camera from "./camera.js";

export default [table, score, evening, setup, device, display, rules, camera];
