/** The relay's routes: game clients post to them (no zod here: the tracker's bundle imports this file). */

/**
 * The routes game clients send to, each a constant of its own: a client file reads them by name, so a bundler that
 * does not see through an object's members (a React Native app's, which keeps the module as built) carries no table.
 */
export const PLAYTIME_ROUTE = '/playtime/sessions';
export const SPONSOR_ROUTE = '/sponsor';

/** Routes under the relay's mount path. */
export const RELAY_ROUTES = {
  playtime: PLAYTIME_ROUTE,
  webviewToken: '/webview/ott',
  sponsor: SPONSOR_ROUTE,
} as const;
