/**
 * The two pages of portal play. The game's page loads the `<script>` bundle from its own folder on the CDN and
 * starts the SDK as the browser guide shows, with an async `headers()` for the studio's token. It tells its
 * embedding page what happens (tracker events, page lifecycle, anything thrown) by `postMessage`, as games
 * talk to portal SDKs; the portal page keeps that log in `window.fromGame`, where a test reads it even after
 * the frame came back from the back/forward cache (Playwright loses track of a restored cross-site frame).
 */

/** How one game's page is built: its Client key, its studio's relay, the service it reads from. */
export interface GamePageConfig {
  name: string;
  clientKey: string;
  relayUrl: string;
  emulatorUrl: string;
  campaignId: string;
  checkpointMs?: number;
  backgroundTimeoutMs?: number;
  /** The game's `tracker.storageKey` (none: the facade's default, the game's own namespace). */
  storageKey?: string;
  /** The game's own analytics beacons at `pagehide` (its listener added before the SDK's), each to `beaconUrl`. */
  exitBeacons?: ExitBeacons;
  beaconUrl?: string;
  /** The game disposes the SDK in its own `pagehide` listener, added before the SDK starts (so run before its exit). */
  disposeFirst?: boolean;
  /**
   * Script run before the SDK's `<script>`: what a page does to the SDK before it loads (an analytics SDK's
   * instrumentation wrapping `fetch`, a speed-hack extension's `Date.now`, which content scripts patch at document start).
   */
  beforeSdk?: string;
}

/**
 * A game's own beacons as its page is left: `count` keepalive `fetch` bodies of `bytes` each (`sendBeacon` shares the
 * same quota: Chromium 150 refused a beacon past it, `sendBeacon` answering false).
 */
export interface ExitBeacons {
  count: number;
  bytes: number;
  /**
   * When the game sends them: at `pagehide` (the default), or each time the page is hidden (`visibilitychange`, as
   * analytics SDKs do, a tab switch included). Either listener is added before the SDK's, so it runs first.
   */
  on?: 'pagehide' | 'hidden';
  /** How long the CDN holds each beacon's answer, ms (a slow analytics endpoint: the bodies stay in flight, on the quota). */
  answerAfterMs?: number;
}

/** One entry of a portal's log of what its game told it. */
export interface GameMessage {
  game: string;
  type: 'ready' | 'beacon' | 'pageshow' | 'pagehide' | 'thrown' | 'session:start' | 'session:end' | 'flushed' | 'dropped' | 'error';
  detail?: unknown;
}

/** The game's `index.html`: the player comes from the portal (`?player=`), play starts when the test calls `play()`. */
export function gamePage(config: GamePageConfig): string {
  const { checkpointMs, backgroundTimeoutMs, storageKey, exitBeacons } = config;
  const tracker = { campaignId: config.campaignId, ...(checkpointMs ? { checkpointMs } : {}), ...(backgroundTimeoutMs ? { backgroundTimeoutMs } : {}), ...(storageKey ? { storageKey } : {}) };
  return `<!doctype html><title>${config.name}</title>
${config.beforeSdk ? `<script>${config.beforeSdk}</script>\n` : ''}<script src="game-campaign.iife.js"></script>
<script>
  const player = new URLSearchParams(location.search).get('player');
  window.log = [];
  const tell = (type, detail) => {
    log.push({ game: ${JSON.stringify(config.name)}, type, detail });
    parent.postMessage({ source: 'game', game: ${JSON.stringify(config.name)}, type, detail }, '*');
  };
  addEventListener('pageshow', (event) => tell('pageshow', event.persisted));
  addEventListener('pagehide', (event) => tell('pagehide', event.persisted));
  addEventListener('error', (event) => tell('thrown', String(event.message)));
  addEventListener('unhandledrejection', (event) => tell('thrown', String(event.reason)));
${exitBeacons ? exitBeaconScript(exitBeacons, config.beaconUrl!) : ''}${config.disposeFirst ? "  addEventListener('pagehide', () => void gc.dispose());\n" : ''}  const gc = GameCampaign.createGameCampaign({
    clientKey: ${JSON.stringify(config.clientKey)},
    environment: { baseUrl: ${JSON.stringify(config.emulatorUrl)} },
    relay: { url: ${JSON.stringify(config.relayUrl)}, headers: async () => ({ authorization: 'Bearer ' + player }) },
    userId: player,
    tracker: ${JSON.stringify(tracker)},
  });
  gc.tracker.on('session:start', (event) => tell('session:start', { sessionId: event.sessionId, continues: event.continues }));
  gc.tracker.on('session:end', (event) => tell('session:end', { sessionId: event.sessionId, reason: event.reason, durationSeconds: event.session.durationSeconds }));
  gc.tracker.on('flushed', (event) => tell('flushed', event.results.map((result) => result.sessionId + ' ' + result.status)));
  gc.tracker.on('dropped', (event) => tell('dropped', { sessionId: event.sessionId, reason: event.reason }));
  gc.tracker.on('error', (event) => tell('error', event.kind + ': ' + String(event.error)));
  window.gc = gc;
  window.play = () => gc.tracker.start();
  window.endLevel = () => gc.tracker.stop();
  tell('ready');
</script>
<h1>${config.name}</h1>`;
}

/**
 * The game's own analytics at `pagehide`, added before the SDK starts (so it runs before the SDK's exit): what it
 * sends counts against the page's keepalive quota as the SDK's exit request does. A fetch the quota refused is told
 * (`beacon`, its error; a task later, so not for a page being closed).
 */
function exitBeaconScript(beacons: ExitBeacons, url: string): string {
  const on = beacons.on === 'hidden' ? "document.addEventListener('visibilitychange', () => {\n    if (document.visibilityState !== 'hidden') return;" : "addEventListener('pagehide', () => {";
  return `  ${on}
    const body = 'x'.repeat(${beacons.bytes});
    for (let i = 0; i < ${beacons.count}; i++) fetch(${JSON.stringify(url)}, { method: 'POST', body, keepalive: true }).catch((error) => tell('beacon', String(error)));
  });
`;
}

/**
 * A portal's play page on `host`: its own chrome around the game's iframe (the game on another site). `sandbox`:
 * the iframe's sandbox attribute, when the portal sets one (without `allow-same-origin` the game's origin is opaque).
 */
export function portalPage(host: string, gameUrl: string, sandbox?: string): string {
  return `<!doctype html><title>${host}</title>
<script>
  window.fromGame = [];
  addEventListener('message', (event) => {
    if (event.data && event.data.source === 'game') fromGame.push({ game: event.data.game, type: event.data.type, detail: event.data.detail });
  });
  addEventListener('pageshow', (event) => fromGame.push({ game: '(portal)', type: 'pageshow', detail: event.persisted }));
</script>
<header>${host}: more games</header>
<iframe id="game" src="${gameUrl}" width="800" height="600" allow="autoplay; fullscreen; gamepad"${sandbox === undefined ? '' : ` sandbox="${sandbox}"`}></iframe>`;
}
