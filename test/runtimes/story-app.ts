/**
 * The server stories every runtime the README names must pass, as one Fetch-API app that each runtime serves as it
 * would serve a game server (Bun.serve, Deno.serve, a Worker's fetch, node:http). It runs the built package
 * (dist/server.js, which the entry imports), as an installed package runs, and uses only what the runtimes share
 * (fetch, Request, Response, URL, btoa): the same file runs on all four.
 *
 * - `POST /stories`: `CampaignServer` calls against the emulator (playtime recorded then SKIPPED, a ValidationError
 *   before sending, a typed NotFoundError, a coupon redeemed), a webhook registered to this app's `/hooks`, and
 *   `signWebhook`/`verifyWebhook` (a good signature, a tampered body, a wrong secret); answers what it observed.
 * - `/campaign/...`: the relay itself (`createRelay`, CORS on, failed logins limited per `clientAddress`); it also
 *   answers every path nothing else here does, as a runtime serving only the relay (`Bun.serve({ fetch: relay.fetch })`).
 * - `POST /hooks`: a real webhook delivery from the emulator, verified; `GET /hooks`: what was verified.
 * - `POST /bulk-story`: `payments.registerBulk` without a callbackId (the SDK makes one with crypto.getRandomValues) on a
 *   CampaignServer whose first answer is lost, so it retries; both attempts' summaries reach `POST /bulk`, a receiver
 *   that emits one `payment.bulk_created` per generated id; `GET /bulk` says what it emitted.
 * - `/proxied/...`: a relay whose service answers 2xx with bodies that are not the spec's (a proxy's HTML page, a
 *   token without `ott`): the relay answers 502 in the spec's error body.
 * - `/receiver`: `createWebhookReceiver` as the webhook guide mounts it (deliveries the test signs with
 *   {@link RECEIVER_SECRET}; a body's read time-out of 1 s); `GET /receiver/wait?callbackId=` answers once `receiver.waitFor` settles, which a
 *   delivery, another request, does; `GET /receiver/waiting?callbackId=` says whether that wait has begun.
 * - `/granting`: a receiver whose listener grants after awaited I/O (a timer, then a `fetch`, as a database write), handed
 *   what the runtime passes beside the request (a Worker's `ctx`); `/granting-bare` is the same receiver without it;
 *   `GET /granting` lists the event ids granted.
 */
import type * as ServerEntry from '../../core/server/index.js';

/** `game-campaign-sdk/server` as built (dist/server.js): each runtime's entry imports it and hands it over. */
export type ServerSdk = typeof ServerEntry;

/** What a runtime's entry passes in: from its arguments or a Worker's bindings. */
export interface StoryConfig {
  /** The emulator's URL (running on Node, in the test). */
  emulatorUrl: string;
  serverKey: string;
  /** The page origin the relay's CORS allows. */
  gameOrigin: string;
}

/** The secret of the deliveries the test signs for `/receiver` (`whsec_` and base64). */
export const RECEIVER_SECRET = 'whsec_' + btoa('the receiver story secret, 32 B!');

/** The client's address as each runtime knows it (the README's `clientAddress` examples); Node's comes with `toNodeHandler`. */
export type AddressOf = (request: Request) => string | undefined;

/** The stories' app: `fetch(request)` as every runtime mounts it. */
export function createStoryApp(sdk: ServerSdk, config: StoryConfig, clientAddress?: AddressOf): { fetch(request: Request, context?: unknown): Promise<Response> } {
  const { CampaignServer, createRelay, createWebhookReceiver, isCampaignError, verifyWebhook } = sdk;
  // A body still arriving after 1 s is answered 408 (server-stories.ts, a trickled delivery).
  const receiver = createWebhookReceiver({ secret: RECEIVER_SECRET, bodyTimeoutMs: 1_000 });
  const waiting = new Set<string>();
  const server = new CampaignServer({ serverKey: config.serverKey, environment: { baseUrl: config.emulatorUrl }, maxRetries: 1 });
  const relay: ServerEntry.Relay = createRelay({
    server,
    authenticate: storyUser,
    cors: { origins: [config.gameOrigin] },
    // The player `leaver`'s sessions take 400 ms to be judged: a client that goes away meanwhile is not forwarded.
    acceptSession: async (_session, user) => {
      if (user.userId === 'leaver') await new Promise((resolve) => setTimeout(resolve, 400));
      return true;
    },
    failedAuthLimit: true,
    // None on Node: toNodeHandler attaches the socket's address, which the relay reads by default.
    ...(clientAddress ? { clientAddress } : {}),
  });
  // The relay behind one proxy of the studio's, as the relay guide mounts it: failed logins keyed by the last
  // X-Forwarded-For entry (what that proxy appended), whatever a client wrote before it.
  const forwarded: ServerEntry.Relay = createRelay({
    server,
    authenticate: storyUser,
    cors: { origins: [config.gameOrigin] },
    basePath: '/forwarded',
    // A studio's limit raised to 2 MiB: room for a batch of 10,000 small sessions (the spec's limit is 1000 a batch).
    maxBodyBytes: 2 * 1024 * 1024,
    failedAuthLimit: true,
    clientAddress: (request) => request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim(),
  });
  // A service whose 2xx answers are not the spec's, behind a relay at /proxied (core/relay's upstream check).
  const proxied: ServerEntry.Relay = createRelay({
    server: new CampaignServer({
      serverKey: config.serverKey,
      environment: { baseUrl: 'https://api.example' },
      maxRetries: 0,
      fetch: async (input) =>
        String(input instanceof Request ? input.url : input).endsWith('/webview/ott')
          ? Response.json({ data: { expiresIn: 60 } })
          : new Response('<html>Welcome to nginx</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    }),
    authenticate: () => ({ userId: 'proxied-player' }),
    cors: { origins: [config.gameOrigin] },
    basePath: '/proxied',
    // A trickled body is cut after 1 s here (server-stories.ts: the slow client's 408 on every runtime).
    bodyTimeoutMs: 1_000,
    ...(clientAddress ? { clientAddress } : {}),
  });
  // The grant happens after the receiver has answered 204: a Worker keeps it alive only through ctx.waitUntil.
  const granting = createWebhookReceiver({ secret: RECEIVER_SECRET });
  const granted: string[] = [];
  granting.on('coupon.redeemed', async (event) => {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const written = await fetch(`${config.emulatorUrl}/v1/client/campaigns/granted`);
    await written.body?.cancel();
    granted.push(event.id);
  });
  let bulkReceiver: ReturnType<ServerSdk["createWebhookReceiver"]> | undefined;
  const heard: Array<string | undefined> = [];
  let webhookSecret: string | undefined;
  const verified: Array<{ type: string; callbackId: string | undefined }> = [];
  const refused: string[] = [];

  const stories = async (selfUrl: string): Promise<Record<string, unknown>> => {
    const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const observed: Record<string, unknown> = { runtime: runtimeName() };
    const hook = await server.webhooks.create({ url: `${selfUrl}/hooks`, eventType: 'coupon.redeemed' });
    webhookSecret = hook.secret;
    const campaigns = await server.campaigns.list();
    observed['campaignIds'] = campaigns.data.map((campaign) => campaign.campaignId).sort();
    const now = Date.now();
    const sessions = [1, 2].map((n) => ({
      sessionId: `runtime-${run}-${n}`,
      userId: 'runtime-player',
      durationSeconds: 60,
      startedAt: new Date(now - 120_000).toISOString(),
      endedAt: new Date(now - 60_000).toISOString(),
    }));
    observed['recorded'] = (await server.playtime.recordBulk({ sessions })).results.map((result) => result.status);
    observed['recordedAgain'] = (await server.playtime.recordBulk({ sessions })).results.map((result) => result.status);
    observed['invalid'] = await server.playtime.record({ ...sessions[0]!, durationSeconds: -1 }).then(
      () => 'recorded',
      (error: unknown) => (isCampaignError(error) ? `${error.name} ${error.code} ${error.details?.map((d) => d.path).join(',')}` : String(error)),
    );
    observed['notFound'] = await server.campaigns.listCreators('cmp_no_such_campaign').then(
      () => 'found',
      (error: unknown) => (isCampaignError(error) ? `${error.name} ${error.status}` : String(error)),
    );
    const redeemed = await server.coupons.redeem({ couponCode: 'DAILY', userId: `runtime-${run}`, callbackId: `runtime-cb-${run}` });
    observed['redeemed'] = redeemed.couponCode;
    observed['callbackId'] = `runtime-cb-${run}`;
    observed['signing'] = await signingStories(sdk);
    return observed;
  };

  /** registerBulk on a CampaignServer that loses the first answer (the service applied it): the callbackIds sent. */
  const bulkStory = async (selfUrl: string): Promise<Record<string, unknown>> => {
    const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const sent: string[] = [];
    let lose = 1;
    const lossy = new CampaignServer({
      serverKey: config.serverKey,
      environment: { baseUrl: config.emulatorUrl },
      maxRetries: 1,
      random: () => 0,
      fetch: async (input, init) => {
        const bulk = String(input instanceof Request ? input.url : input).endsWith('/payments/bulk');
        if (bulk) sent.push((JSON.parse(String(init?.body)) as { callbackId: string }).callbackId);
        const answer = await fetch(input, init);
        if (bulk && lose-- > 0) {
          await answer.body?.cancel();
          throw new TypeError('fetch failed');
        }
        return answer;
      },
    });
    const hook = await lossy.webhooks.create({ url: `${selfUrl}/bulk`, eventType: 'payment.bulk_created' });
    bulkReceiver = createWebhookReceiver({ secret: hook.secret! });
    bulkReceiver.on('payment.bulk_created', (event) => void heard.push(event.callbackId));
    const payment = (n: number) => ({ userId: 'runtime-buyer', transactionId: `tx-${run}-${n}`, productId: 'gems', amount: 4.99, currency: 'USD', purchasedAt: new Date().toISOString() });
    const result = await lossy.payments.registerBulk({ payments: [payment(1), payment(2)] });
    return { webhookId: hook.id, skipped: result.skipped, sent };
  };

  return {
    // `context`: what the runtime's server passes beside the request (Bun's server, Deno's info), handed to the relay.
    async fetch(request, context) {
      // With a base: Bun hands a request that names no host (HTTP/1.0 without Host) its bare target as `url`, on which
      // `new URL` alone throws; the relay answers that request itself (core/relay/request-target.ts). A URL that is none
      // even so (workerd's of a request with two Host lines, `http://a.example, 127.0.0.1/...`) is the relay's too.
      // (Not URL.canParse: a Worker dated before 2023 has none.)
      let url: URL;
      try {
        url = new URL(request.url, 'http://no-host.invalid');
      } catch {
        return await relay.fetch(request, context);
      }
      const { pathname, origin } = url;
      try {
        if (pathname.startsWith('/campaign/')) return await relay.fetch(request, context);
        if (pathname.startsWith('/proxied/')) return await proxied.fetch(request, context);
        if (pathname.startsWith('/forwarded/')) return await forwarded.fetch(request, context);
        if (pathname === '/stories' && request.method === 'POST') return Response.json(await stories(origin));
        if (pathname === '/bulk-story' && request.method === 'POST') return Response.json(await bulkStory(origin));
        if (pathname === '/bulk' && request.method === 'POST') return bulkReceiver ? await bulkReceiver.fetch(request) : new Response('no receiver', { status: 404 });
        if (pathname === '/bulk' && request.method === 'GET') return Response.json(heard);
        if (pathname === '/hooks' && request.method === 'POST') {
          const payload = await request.text();
          try {
            const event = await verifyWebhook({ payload, headers: request.headers, secret: webhookSecret ?? 'whsec_none' });
            verified.push({ type: event.type, callbackId: event.callbackId });
            return new Response(null, { status: 204 });
          } catch (error) {
            refused.push(String(error));
            return new Response('refused', { status: 400 });
          }
        }
        if (pathname === '/hooks' && request.method === 'GET') return Response.json({ verified, refused });
        if (pathname === '/receiver') return await receiver.fetch(request);
        if (pathname === '/granting' && request.method === 'GET') return Response.json(granted);
        if (pathname === '/granting') return await granting.fetch(request, context);
        if (pathname === '/granting-bare') return await granting.fetch(request);
        const callbackId = url.searchParams.get('callbackId') ?? '';
        if (pathname === '/receiver/waiting') return Response.json(waiting.has(callbackId));
        if (pathname === '/receiver/wait') {
          waiting.add(callbackId);
          return Response.json({ type: (await receiver.waitFor({ callbackId, timeoutMs: 10_000 })).type });
        }
        // What no story serves reaches the relay, as on a runtime serving only the relay (a path climbing out of its base path).
        return await relay.fetch(request, context);
      } catch (error) {
        // A story that threw: said in full, so the test names it (never a runtime's bare 500).
        return Response.json({ threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }, { status: 599 });
      }
    },
  };
}

/**
 * The game's own check, as a game's token carries its player: `Bearer user:<id>` (the id as written), or
 * `Bearer json:<base64 of a UTF-8 JSON string>`, the id as JSON reads it (any Unicode, a NUL, a lone surrogate
 * `\ud800`), as a game whose session token is a JWT has it. A token that reads as nothing is refused (null: 401).
 */
function storyUser(request: Request): { userId: string } | null {
  const match = /^Bearer (user|json):(.+)$/.exec(request.headers.get('authorization') ?? '');
  if (!match) return null;
  if (match[1] === 'user') return { userId: match[2] as string };
  try {
    const userId: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(match[2] as string), (c) => c.charCodeAt(0))));
    return typeof userId === 'string' ? { userId } : null;
  } catch {
    return null;
  }
}

/** Which runtime this is, by its own globals, so a test cannot pass on another one by mistake. */
function runtimeName(): string {
  const g = globalThis as Record<string, unknown>;
  if (g['Bun']) return 'bun';
  if (g['Deno']) return 'deno';
  if ((g['navigator'] as { userAgent?: string } | undefined)?.userAgent === 'Cloudflare-Workers') return 'workerd';
  return (g['process'] as { release?: { name?: string } } | undefined)?.release?.name ?? 'unknown';
}

/** `signWebhook` then `verifyWebhook` on this runtime's WebCrypto: a good signature, a tampered body, a wrong secret. */
async function signingStories({ signWebhook, verifyWebhook }: ServerSdk): Promise<Record<string, string>> {
  const secret = 'whsec_' + btoa('a runtime story secret, 32 bytes');
  const payload = JSON.stringify({ id: 'evt_1', type: 'coupon.redeemed', createdAt: new Date().toISOString(), data: { couponCode: 'DAILY' } });
  const { headers } = signWebhook({ payload, secret, id: 'msg_1' });
  const outcome = (promise: Promise<{ type: string }>) => promise.then((event) => `verified ${event.type}`, (error: Error) => `${error.name}`);
  return {
    good: await outcome(verifyWebhook({ payload, headers, secret })),
    tampered: await outcome(verifyWebhook({ payload: payload.replace('DAILY', 'WELCOME'), headers, secret })),
    wrongSecret: await outcome(verifyWebhook({ payload, headers, secret: 'whsec_' + btoa('another secret of thirty-two by') })),
    // Rotation: the new secret first in the list, the delivery signed with the old one.
    rotated: await outcome(verifyWebhook({ payload, headers, secret: ['whsec_' + btoa('another secret of thirty-two by'), secret] })),
    // A timestamp written with a sign and a fraction, as the Standard Webhooks library reads it (parseInt).
    writtenOtherwise: await outcome(verifyWebhook({ payload, headers: { ...headers, 'webhook-timestamp': `+${headers['webhook-timestamp']}.0` }, secret })),
  };
}
