/**
 * The size the e2e tests give the side panel's page when they load it as a tab. The docs' screenshots
 * come from the real side panel instead (tests/headed/shoot-panel.ts, `npm run screenshots`).
 */

/** The width Chrome gives a side panel by default, and a laptop screen's height. */
export const PANEL_SIZE = { width: 400, height: 800 };
