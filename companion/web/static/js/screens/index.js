// The page's screens, in tab order. A screen is one module whose default export is
//   { id, tab, markup, wire(), render(), shown()? }
// id: the section is #screen-<id> and its tab #tab-<id>; tab: the i18n key of the tab's label;
// markup: the section's static HTML (texts as data-i18n keys, no user data); wire(): called once
// after the markup is in the page; render(): after every state or language change; shown(): when
// its tab is opened. Adding a screen is one new module and one line here.

import table from "./table.js";
import score from "./score.js";
import setup from "./setup.js";
import device from "./device.js";

export default [table, score, setup, device];
