/** The relay's routes: game clients post to them (no zod here: the tracker's bundle imports this file). */

/** Routes under the relay's mount path. */
export const RELAY_ROUTES = {
  playtime: '/playtime/sessions',
  webviewToken: '/webview/ott',
  sponsor: '/sponsor',
} as const;
