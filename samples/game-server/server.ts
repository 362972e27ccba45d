/**
 * The sample game server `npm start` runs: what a real game server adds around the SDK, on Hono.
 * - a toy login (`POST /login`): a real game checks its own accounts; here any demo player name gets a token;
 * - the relay at `/campaign`, binding each request to the player of its bearer token;
 * - CORS on those two for Cocos Creator's browser preview (`http://localhost:7456`, its default preview port),
 *   so the Cocos sample (samples/cocos) runs in the editor's preview against this server;
 * - a webhook receiver per event type (`/webhooks/<type>`), each verified with its own secret, and the verified
 *   events as server-sent events (`GET /events`) for the sample page's live feed;
 * - `samples/browser` and the built SDK (`/sdk/*` from `dist/`), so the page needs no build step;
 * - two demo-only controls: `POST /demo/clock` moves the emulator's clock, `GET /demo/sessions` lists what the
 *   emulator recorded for the logged-in player (so the page can show "recorded once").
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import { CampaignServer, createRelay, createWebhookReceiver, WebhookEventType, type ReceivedWebhookEvent } from 'game-campaign-sdk/server';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS, type RunningEmulator } from 'game-campaign-sdk/emulator';

/** Options of {@link startGameServer}. */
export interface GameServerOptions {
  /** The service to talk to (the local emulator). */
  emulator: RunningEmulator;
  /** @defaultValue 8788; 0 picks a free port */
  port?: number;
  /** Where `/` and `/sdk` files come from. @defaultValue the repository's `samples/browser` and `dist` */
  root?: string;
  /**
   * Page origins that may call `/login` and the relay from another origin: a game previewed elsewhere on this
   * machine. @defaultValue {@link COCOS_PREVIEW_ORIGINS}
   */
  corsOrigins?: string[];
}

/**
 * Cocos Creator's browser preview (Preview in browser, its default port 7456: Preferences > Preview), as
 * browsers send its origin. A dev server's list only: a released game's relay lists its own pages' origins.
 */
export const COCOS_PREVIEW_ORIGINS = ['http://localhost:7456', 'http://127.0.0.1:7456'];

/** A running sample game server. */
export interface GameServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the sample game server on 127.0.0.1. */
export async function startGameServer(options: GameServerOptions): Promise<GameServer> {
  const { emulator } = options;
  // fileURLToPath, not .pathname: under a folder with a space (`My Projects`) the path read as %20 and nothing was served.
  const root = options.root ?? fileURLToPath(new URL('../..', import.meta.url));
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });

  /** How far the demo moved the emulator's clock, so the page can judge the boost cooldown by the same clock. */
  let clockOffsetMs = 0;
  // Toy accounts: token -> player. A real game verifies its own session here.
  const players = new Map<string, string>();
  const origins = options.corsOrigins ?? COCOS_PREVIEW_ORIGINS;
  const relay = createRelay({
    server,
    basePath: '/campaign',
    cors: { origins },
    authenticate: (request) => {
      const userId = players.get(request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '');
      return userId ? { userId } : null;
    },
  });

  // Every verified webhook goes to every open feed.
  const feeds = new Set<(event: ReceivedWebhookEvent) => void>();
  const receivers = new Map<string, ReturnType<typeof createWebhookReceiver>>();
  const app = new Hono();
  let running!: ServerType;
  const port = await new Promise<number>((resolve) => {
    running = serve({ fetch: app.fetch, port: options.port ?? 8788, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  const url = `http://127.0.0.1:${port}`;
  // Every event type the SDK knows (the schema's own list): one receiver, with its own secret, for each.
  for (const eventType of WebhookEventType.options) {
    const hook = await server.webhooks.create({ url: `${url}/webhooks/${eventType}`, eventType });
    const receiver = createWebhookReceiver({ secret: hook.secret });
    receiver.on('event', (event) => feeds.forEach((send) => send(event)));
    receivers.set(eventType, receiver);
  }

  // The relay answers its own preflights (its `cors`); the login, the sample's, needs the same origins.
  app.use('/login', cors({ origin: origins, allowMethods: ['POST'], allowHeaders: ['content-type'] }));
  app.post('/login', async (c) => {
    const { userId } = await c.req.json<{ userId?: unknown }>().catch(() => ({ userId: undefined }));
    if (typeof userId !== 'string' || !/^[\w-]{1,64}$/.test(userId)) return c.json({ message: 'userId: 1 to 64 letters, digits, _ or -' }, 400);
    const token = randomUUID();
    players.set(token, userId);
    return c.json({ token, userId });
  });
  app.all('/campaign/*', (c) => relay.fetch(c.req.raw));
  app.post('/webhooks/:type', (c) => receivers.get(c.req.param('type'))?.fetch(c.req.raw) ?? c.notFound());
  app.get('/events', (c) =>
    streamSSE(c, async (stream) => {
      const send = (event: ReceivedWebhookEvent) => void stream.writeSSE({ event: 'webhook', data: JSON.stringify(event) });
      feeds.add(send);
      await new Promise<void>((resolve) => stream.onAbort(resolve));
      feeds.delete(send);
    }),
  );
  app.get('/demo/config', (c) =>
    c.json({ apiBaseUrl: emulator.url, clientKey: emulator.clientKey, relayUrl: `${url}/campaign`, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, players: DEMO_USERS, clockOffsetMs }),
  );
  app.post('/demo/clock', async (c) => {
    const { days } = await c.req.json<{ days?: unknown }>().catch(() => ({ days: undefined }));
    if (typeof days !== 'number' || !(days > 0 && days <= 365)) return c.json({ message: 'days: 1 to 365' }, 400);
    emulator.advanceClock(days * 86_400_000);
    clockOffsetMs += days * 86_400_000;
    return c.json({ advancedDays: days, clockOffsetMs });
  });
  app.get('/demo/sessions', (c) => {
    const userId = players.get(c.req.header('authorization')?.replace(/^Bearer /, '') ?? '');
    if (!userId) return c.json({ message: 'log in first' }, 401);
    return c.json({ sessions: emulator.state().sessions.filter((session: { userId: string }) => session.userId === userId) });
  });
  app.use('/sdk/*', serveStatic({ root, rewriteRequestPath: (path) => path.replace(/^\/sdk/, '/dist') }));
  app.use('/*', serveStatic({ root: `${root}samples/browser` }));

  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        running.close(() => resolve());
        (running as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
