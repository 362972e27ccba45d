// A game page on one origin calling its relay on another through the SDK, in real Chromium, as on a web portal (the
// game on the portal's CDN, the relay on the studio's server): the relay's `cors` option answers the preflight the
// game's authorization header causes, the session is recorded once, and the relay's Retry-After is readable by the
// tracker (exposed), which then waits as asked instead of its own short backoff. Two loopback ports are two origins.
// A boost change (PUT) passes its own preflight and the relay's typed error reaches the game. On main before the option
// the preflight was answered 405: the browser blocked every send and the session stayed queued.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { bundledBrowserEntry, serveGame, type GameFiles } from '../helpers/game-server.js';

const USER = DEMO_USERS.noBoost;
const RETRY_AFTER_SECONDS = 30;

describe.runIf(chromiumAvailable())('a relay on another origin, through the SDK in Chromium', () => {
  let emulator: RunningEmulator;
  let game: Server;
  let relayServer: Server;
  let gameOrigin: string;
  let relayOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  /** Every request the relay got: method, status answered, and the Origin it carried. */
  const seen: Array<{ method: string; status: number; origin: string | null }> = [];
  /** The relay's next playtime request is refused 429 with Retry-After (rate-limiter-flexible's rejection shape). */
  let limitNext = false;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    // The game's origin first (its files are filled in below, once the relay's origin is known): the relay allows it.
    const files: GameFiles = {};
    ({ server: game, origin: gameOrigin } = await serveGame(files, (_req, res) => res.writeHead(404).end()));
    const limiter = {
      consume: async () => {
        if (!limitNext) return {};
        limitNext = false;
        throw { msBeforeNext: RETRY_AFTER_SECONDS * 1000, remainingPoints: 0 };
      },
    } as unknown as RateLimiterAbstract;
    const relay = createRelay({
      server: new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } }),
      authenticate: (request) => {
        const userId = request.headers.get('authorization')?.replace('Bearer ', '');
        return userId === USER || userId === DEMO_USERS.changeable ? { userId } : null;
      },
      rateLimiter: limiter,
      cors: { origins: [gameOrigin] },
    });
    relayServer = createServer(
      toNodeHandler({
        fetch: async (request: Request) => {
          const answer = await relay.fetch(request);
          seen.push({ method: request.method, status: answer.status, origin: request.headers.get('origin') });
          return answer;
        },
      }),
    );
    await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
    relayOrigin = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}`;
    const page = `<!doctype html><title>portal game</title><script type="module">
      import * as sdk from '/sdk.mjs';
      window.sdk = sdk;
      window.errors = [];
      window.gc = sdk.createGameCampaign({
        clientKey: ${JSON.stringify(emulator.clientKey)},
        environment: { baseUrl: ${JSON.stringify(emulator.url)} },
        relay: { url: ${JSON.stringify(`${relayOrigin}/campaign`)}, headers: async () => ({ authorization: 'Bearer ${USER}' }) },
        userId: '${USER}',
        tracker: { campaignId: '${DEMO_ACTIVE_CAMPAIGN_ID}', flushIntervalMs: 600000 },
      });
      window.gc.tracker.on('error', (event) => window.errors.push(event.kind + ': ' + String(event.error)));
      window.ready = true;
    </script>`;
    Object.assign(files, { '/': ['text/html', page], '/sdk.mjs': ['text/javascript', await bundledBrowserEntry()] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    game?.close();
    relayServer?.close();
    await emulator?.close();
  });

  const recorded = (sessionId: string) => emulator.state().sessions.filter((session) => session.sessionId === sessionId).length;
  const posts = () => seen.filter((request) => request.method === 'POST');

  it('records a session once through the preflight, and waits out an exposed Retry-After', async () => {
    const page = await browser.context.newPage();
    await page.clock.install();
    await page.goto(gameOrigin);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    expect(new URL(page.url()).origin).not.toBe(relayOrigin);

    const playOnce = async () => {
      const sessionId = await page.evaluate(() => (window as any).gc.tracker.start() as string);
      await page.clock.runFor(3_000);
      await page.evaluate(async () => {
        await (window as any).gc.tracker.stop();
        await (window as any).gc.tracker.flush();
      });
      return sessionId;
    };

    const first = await playOnce();
    await expect.poll(() => posts().length).toBe(1);
    expect(recorded(first)).toBe(1);
    expect(seen.filter((request) => request.method === 'OPTIONS')).toEqual([{ method: 'OPTIONS', status: 204, origin: gameOrigin }]);
    expect(posts()).toEqual([{ method: 'POST', status: 200, origin: gameOrigin }]);

    // The relay refuses the next batch 429 with Retry-After: 30. A flush asked for at once sends nothing: the tracker
    // read the header (a blocked one reads as absent, and the tracker would send again after its own ~1 s backoff).
    limitNext = true;
    const second = await playOnce();
    expect(posts().map((request) => request.status)).toEqual([200, 429]);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await page.clock.fastForward(RETRY_AFTER_SECONDS * 1000 - 5_000);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    expect(posts().map((request) => request.status)).toEqual([200, 429]);
    expect(recorded(second)).toBe(0);

    await page.clock.fastForward(10_000); // past the Retry-After: the tracker's own retry sends it
    // (The relay's answer is logged once it is complete, a moment after the emulator recorded the session.)
    await expect.poll(() => posts().map((request) => request.status)).toEqual([200, 429, 200]);
    expect(recorded(second)).toBe(1);
    expect(await page.evaluate(() => (window as any).errors as string[])).toEqual([]);
    await page.close();
  });

  it("changes the boost with a PUT through that route's own preflight, and reads the relay's typed error", async () => {
    const page = await browser.context.newPage();
    await page.goto(gameOrigin);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const before = seen.length;
    const outcome = await page.evaluate(
      async ([campaignId, relayUrl, changeable, clientKey, apiUrl]) => {
        // A player whose boost may change (40 days old), on a facade of its own; and this page's player, asking for a
        // creator that does not exist.
        const other = (window as any).sdk.createGameCampaign({ clientKey, environment: { baseUrl: apiUrl }, relay: { url: relayUrl, headers: { authorization: `Bearer ${changeable}` } }, userId: changeable, browser: { dbName: 'boost' } });
        const boost = await other.boost.change({ newCreatorKey: 'NOVA1', campaignId });
        const refused = await (window as any).gc.boost.change({ newCreatorKey: 'NOPE1', campaignId }).catch((error: { name: string; status: number; message: string }) => `${error.name} ${error.status}: ${error.message}`);
        return { creatorKey: boost.creatorKey, refused };
      },
      [DEMO_ACTIVE_CAMPAIGN_ID, `${relayOrigin}/campaign`, DEMO_USERS.changeable, emulator.clientKey, emulator.url] as const,
    );
    expect(outcome).toEqual({ creatorKey: 'NOVA1', refused: 'NotFoundError 404: Creator NOPE1 not found' });
    expect(seen.slice(before).map((request) => [request.method, request.status])).toEqual([
      ['OPTIONS', 204],
      ['PUT', 200],
      ['PUT', 404],
    ]);
    await page.close();
  });
});
