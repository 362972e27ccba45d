/**
 * The three sites of portal play, on one local server told apart by host: portals (`portal`, `arcade`) whose
 * page embeds the game in a cross-site iframe; the games' CDN (`cdn`), where each game is a folder holding its
 * page and the built `<script>` bundle with its sibling files, as a studio uploads them; and the studio's server
 * (`studio`), where each game's real relay runs behind `cors` in front of an emulator of its own (its own keys),
 * so what each game's service recorded can be read separately. `elsewhere` is any other site a portal page
 * navigates to. Hosts are `{site}.test` (Chromium maps them to 127.0.0.1: plain http, not a secure context, so
 * no Web Locks and no crypto.subtle) or `{site}.localhost` (loopback, which browsers count as a secure context).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { createRelay, type RelayOptions } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, startEmulator, type RunningEmulator, type StoredSession } from '../../../emulator/index.js';
import { gamePage, portalPage, type ExitBeacons } from './portal-pages.js';

const DIST = join(import.meta.dirname, '../../../dist');

/** Tracker settings a game ships with (a game that keeps the defaults passes none). */
export interface GameSettings {
  checkpointMs?: number;
  /** How long in the background ends the session (a story that hides the page longer keeps it short). */
  backgroundTimeoutMs?: number;
  /** The game's `tracker.storageKey` (none: the facade's default, `game-campaign.<CLIENT_KEY_ID>`). */
  storageKey?: string;
  /** The game's own analytics beacons as its page is left (sent to the CDN's `/{game}/beacon`, counted in `beacons`). */
  exitBeacons?: ExitBeacons;
  /** The game disposes the SDK in its own `pagehide` listener, added before the SDK's (run first). */
  disposeFirst?: boolean;
  /** The relay also allows the opaque origin `null` (a portal that sandboxes the game without `allow-same-origin`). */
  allowOpaqueOrigin?: boolean;
  /** Script the game's page runs before the SDK's `<script>` (portal-pages.ts `GamePageConfig.beforeSdk`). */
  beforeSdk?: string;  /**
   * The game's page is served with a Content-Security-Policy whose `connect-src` leaves the studio's relay out (the CDN
   * and the campaign service in): read when the page is served, so a story may change it between visits.
   */
  cspBlocksRelay?: boolean;
}

/**
 * What answers at the relay's address: `relay`, the real relay; `login-page`, a captive portal's (hotel or train
 * Wi-Fi) 200 `text/html` login page that the game's page can read (behind the studio's own front, CORS headers and
 * all: the SDK sees the HTML); `intercept`, that page for every request, preflight included, with no CORS header
 * (the browser blocks it: the SDK sees a failed fetch while the browser is online); `down`, every connection
 * reset (the studio's server unreachable); `busy`, the studio's overloaded server answering every POST 503 with
 * `Retry-After: 300` (CORS headers and all: the SDK reads it; preflights still reach the relay).
 */
export type StudioFront = 'relay' | 'login-page' | 'intercept' | 'down' | 'busy';

/** One game: its folder on the CDN, its relay on the studio's server, its own service (emulator). */
export interface StudioGame {
  name: string;
  /** The game's settings, read as its page is served (a story may change them between visits). */
  settings: GameSettings;
  emulator: RunningEmulator;
  clientKey: string;
  /** sessionId of every session the relay received, once per receipt (a resend shows twice). */
  received: string[];
  /** What answers at the relay's address now. */
  front: StudioFront;
  /** Requests something other than the relay answered (or refused). */
  notRelayed: number;
  /** How long the relay's front holds a CORS preflight (`OPTIONS`) before the relay answers it, ms (0: at once). */
  preflightDelayMs: number;
  /** How long the relay's front holds a sessions `POST` before the relay takes it, ms (0: at once): a slow studio server. */
  postDelayMs: number;
  /**
   * How many of the next sessions `POST`s are lost: each, counted down as it arrives, has its connection reset when its
   * `postDelayMs` is over, the relay never seeing it (a request the network lost on its way; the ones after it go through).
   */
  lostPosts: number;
  /** Bytes of the game's own beacons its CDN received (`exitBeacons`). */
  beaconBytes: number;
  /** Preflights the relay's address was asked, counted as they arrive. */
  preflights: number;
  /** POSTs the relay's address was sent, counted as they arrive (before any delay). */
  posts: number;
  /** What this game's service recorded for `userId`. */
  recorded(userId: string): StoredSession[];
}

/** The sites of a story. */
export type Site = 'portal' | 'arcade' | 'cdn' | 'studio' | 'elsewhere';

/** Where the sites are: `test` (plain http) or `localhost` (a secure context). */
export type SiteDomain = 'test' | 'localhost';

/** The running sites. */
export interface PortalSites {
  domain: SiteDomain;
  /** `http://{site}.{domain}:{port}`. */
  origin(site: Site): string;
  /**
   * The portal page on `portal` playing `game` for `player` (in an iframe with that `sandbox` attribute, if given;
   * the page sent with that `Cross-Origin-Opener-Policy`, if `coop`).
   */
  portalUrl(portal: Site, game: string, player: string, sandbox?: string, coop?: string): string;
  /** The game's own page on the CDN for `player`: what a portal's iframe loads. */
  gameUrl(game: string, player: string): string;
  games: Record<string, StudioGame>;
  /** Every path asked of the CDN, in order (answered or not). */
  cdnRequests: string[];
  /** Scripts a story serves, by `{site}{path}` (e.g. `portal/sw.js`, `cdn/alpha/sw.js`): its service workers. */
  workers: Record<string, string>;
  close(): Promise<void>;
}

const CAPTIVE_PAGE = '<!doctype html><title>Wi-Fi login</title><h1>Accept the terms to get online</h1><form method="post"><button>Connect</button></form>';

/** The built `<script>` bundle and every sibling file the build put next to it (whichever the current build has). */
function sdkFiles(): Record<string, string> {
  if (!existsSync(join(DIST, 'game-campaign.iife.js'))) throw new Error('dist/game-campaign.iife.js is missing: build first (node scripts/build.mjs)');
  const names = readdirSync(DIST).filter((name) => /^game-campaign\.[\w.-]+\.js$/.test(name));
  return Object.fromEntries(names.map((name) => [name, readFileSync(join(DIST, name), 'utf8')]));
}

/** Starts the emulators, relays and the one server of every site; `games` maps a game's name to its settings. */
export async function startPortalSites(games: Record<string, GameSettings>, domain: SiteDomain = 'test'): Promise<PortalSites> {
  const sdk = sdkFiles();
  const studio: Record<string, StudioGame & { handle: (req: IncomingMessage, res: ServerResponse) => void; settings: GameSettings }> = {};
  let port = 0;
  const origin = (site: Site) => `http://${site}.${domain}:${port}`;
  const gameUrl = (game: string, player: string) => `${origin('cdn')}/${game}/index.html?player=${encodeURIComponent(player)}`;

  /** Answers instead of the relay when its front says so; false when the relay should answer. */
  const front = (game: StudioGame, req: IncomingMessage, res: ServerResponse): boolean => {
    if (game.front === 'relay' || ((game.front === 'login-page' || game.front === 'busy') && req.method === 'OPTIONS')) return false;
    game.notRelayed += 1;
    if (game.front === 'down') return void req.socket.destroy(), true;
    if (game.front === 'busy') {
      req.resume();
      const origin = req.headers.origin ?? '*';
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '300', 'access-control-allow-origin': origin, 'access-control-expose-headers': 'Retry-After', vary: 'Origin' });
      return void res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'busy' } })), true;
    }
    const cors = game.front === 'login-page' && req.headers.origin ? { 'access-control-allow-origin': req.headers.origin, vary: 'Origin' } : {};
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...cors }).end(CAPTIVE_PAGE);
    return true;
  };

  const cdnRequests: string[] = [];
  const workers: Record<string, string> = {};
  const server: Server = createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const site = host.endsWith(`.${domain}`) ? host.slice(0, -domain.length - 1) : '';
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const [, folder = '', file = ''] = path.split('/');
    const game = studio[folder];
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const worker = workers[`${site}${path}`];
    if (worker !== undefined) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    if (site === 'studio' && game) {
      if (req.method === 'OPTIONS') game.preflights += 1;
      if (req.method === 'POST') game.posts += 1;
      const delay = req.method === 'OPTIONS' ? game.preflightDelayMs : req.method === 'POST' ? game.postDelayMs : 0;
      const lost = req.method === 'POST' && game.lostPosts > 0 && game.lostPosts-- > 0;
      const answer = () => void (lost ? req.socket.destroy() : front(game, req, res) || game.handle(req, res));
      return void (delay ? setTimeout(answer, delay) : answer());
    }
    if (site === 'cdn') cdnRequests.push(path);
    if (site === 'cdn' && game) {
      if (file === 'beacon') {
        req.on('data', (chunk: Buffer) => void (game.beaconBytes += chunk.length));
        return void req.on('end', () => setTimeout(() => res.writeHead(204).end(), game.settings.exitBeacons?.answerAfterMs ?? 0));
      }
      if (file === 'index.html') {
        const relayUrl = `${origin('studio')}/${folder}/campaign`;
        if (game.settings.cspBlocksRelay) res.setHeader('content-security-policy', `connect-src 'self' ${new URL(game.emulator.url).origin}`);
        return html(
          gamePage({ name: folder, clientKey: game.clientKey, relayUrl, emulatorUrl: game.emulator.url, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, beaconUrl: `${origin('cdn')}/${folder}/beacon`, ...game.settings })
        );
      }
      if (sdk[file] !== undefined) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdk[file]);
    }
    if ((site === 'portal' || site === 'arcade') && folder === 'play' && studio[file]) {
      const { searchParams } = new URL(req.url ?? '/', 'http://x');
      const player = searchParams.get('player') ?? 'guest';
      const page = portalPage(host, gameUrl(file, player), searchParams.get('sandbox') ?? undefined);
      // A portal page that isolates itself from other windows (`?coop=same-origin`).
      const coop = searchParams.get('coop');
      return coop ? void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cross-origin-opener-policy': coop }).end(page) : html(page);
    }
    if (site === 'elsewhere') return html('<!doctype html><title>Elsewhere</title><p>Another site.</p>');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  // The relays are made once the port is known: their CORS list holds the CDN's origin.
  for (const [name, settings] of Object.entries(games)) {
    const keys = { clientKey: `ck_${name}:cs_${name}_secret`, serverKey: `sk_${name}:ss_${name}_secret` };
    const emulator = await startEmulator({ port: 0, keys });
    const game: (typeof studio)[string] = {
      name,
      emulator,
      clientKey: keys.clientKey,
      received: [],
      front: 'relay',
      notRelayed: 0,
      preflightDelayMs: 0,
      postDelayMs: 0,
      lostPosts: 0,
      beaconBytes: 0,
      preflights: 0,
      posts: 0,
      settings,
      recorded: (userId) => emulator.state().sessions.filter((session) => session.userId === userId),
      handle: () => undefined,
    };
    // Not an object literal at the call: this file also runs against a build whose RelayOptions has no `cors` yet.
    const options: RelayOptions & { cors: { origins: string[] } } = {
      server: new CampaignServer({ serverKey: keys.serverKey, environment: { baseUrl: emulator.url } }),
      basePath: `/${name}/campaign`,
      // The studio's own login: the game sends its player's token, here the player's id.
      authenticate: (request) => {
        const userId = request.headers.get('authorization')?.replace(/^Bearer /, '');
        return userId ? { userId } : null;
      },
      cors: { origins: settings.allowOpaqueOrigin ? [origin('cdn'), 'null'] : [origin('cdn')] },
    };
    const relay = createRelay(options);
    game.handle = toNodeHandler({
      fetch: async (request: Request) => {
        if (request.method === 'POST' && new URL(request.url).pathname.endsWith('/playtime/sessions')) {
          const body = (await request.clone().json()) as { sessions: Array<{ sessionId: string }> };
          game.received.push(...body.sessions.map((session) => session.sessionId));
        }
        return relay.fetch(request);
      },
    });
    studio[name] = game;
  }

  return {
    domain,
    origin,
    portalUrl: (portal, game, player, sandbox, coop) =>
      `${origin(portal)}/play/${game}?player=${encodeURIComponent(player)}${sandbox === undefined ? '' : `&sandbox=${encodeURIComponent(sandbox)}`}${coop ? `&coop=${coop}` : ''}`,
    gameUrl,
    games: studio,
    cdnRequests,
    workers,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      for (const game of Object.values(studio)) await game.emulator.close();
    },
  };
}
