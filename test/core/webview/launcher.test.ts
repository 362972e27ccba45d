/**
 * The launcher on a memory platform: the URL it opens, what the relay and the service receive (never the verifier),
 * one web view at a time, and the relay's failures as typed errors (401 -> RelayAuthError, 429 retried).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimitError, RelayAuthError, ValidationError } from '../../../core/http/errors.js';
import { createMemoryPlatform } from '../../../core/memory-platform.js';
import { createRelay, relayCallbackId } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { RELAY_ROUTES } from '../../../core/relay/routes.js';
import { WebViewLauncher } from '../../../core/webview/launcher.js';
import { WEB_PAGE_PATTERN } from '../../../core/schema/web-page.js';
import { createEmulator, DEMO_ACTIVE_CAMPAIGN_ID, type Emulator } from '../../../emulator/index.js';

const API = 'http://emulator.local';
const RELAY = 'http://game.local/campaign';
let emulator: Emulator | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await emulator?.close();
  emulator = undefined;
});

interface Seen {
  to: 'relay' | 'service';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A memory platform whose fetch reaches a real relay in front of the emulator; every request on both legs is recorded. */
function setup() {
  const emu = (emulator = createEmulator());
  const seen: Seen[] = [];
  const record = async (to: Seen['to'], request: Request) => {
    seen.push({ to, url: request.url, headers: Object.fromEntries(request.headers), body: await request.clone().text() });
    return request;
  };
  const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: API }, fetch: async (input, init) => emu.fetch(await record('service', new Request(input, init))), maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => (request.headers.get('authorization') === 'Bearer player-1' ? { userId: 'player-1' } : null) });
  const platform = createMemoryPlatform({
    fetch: async (input, init) => {
      const request = new Request(input, init);
      return request.url.startsWith(RELAY) ? relay.fetch(await record('relay', request)) : emu.fetch(await record('service', request));
    },
  });
  const launcher = new WebViewLauncher({ platform, relay: { url: RELAY, headers: { authorization: 'Bearer player-1' } } });
  return { emu, platform, launcher, seen };
}

function parts(url: string) {
  const parsed = new URL(url);
  return { ott: parsed.searchParams.get('ott'), verifier: new URLSearchParams(parsed.hash.slice(1)).get('code_verifier'), parsed };
}

describe('WebViewLauncher', () => {
  it('opens {url}?ott=<token>#code_verifier=<verifier> and never sends the verifier to the relay or the service', async () => {
    const { platform, launcher, seen } = setup();
    await launcher.open({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, showCampaignDetail: true, metadata: { level: 3 }, callbackId: 'wv-1' });
    expect(platform.opened).toHaveLength(1);
    const { ott, verifier, parsed } = parts(platform.opened[0]!);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(`${API}/webview`);
    expect(ott).toMatch(/^ott_/);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The token request went relay -> service; the challenge travelled, the verifier did not.
    expect(seen.map((s) => `${s.to} ${new URL(s.url).pathname}`)).toEqual(['relay /campaign/webview/ott', 'service /v1/server/webview/ott']);
    expect(JSON.parse(seen[1]!.body)).toMatchObject({ userId: 'player-1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, showCampaignDetail: true, metadata: { level: 3 }, callbackId: relayCallbackId('player-1', 'wv-1'), codeChallenge: expect.any(String) });
    for (const request of seen) expect(JSON.stringify(request)).not.toContain(verifier);
  });

  it('appends the token to a web view URL that already has a query, and replaces its fragment', async () => {
    const platform = createMemoryPlatform({
      fetch: async () => new Response(JSON.stringify({ data: { ott: 'ott_1', expiresIn: 60, url: 'https://view.example/wv?lang=en#old' } }), { status: 200 }),
    });
    await new WebViewLauncher({ platform, relay: { url: RELAY } }).open();
    expect(platform.opened[0]).toMatch(/^https:\/\/view\.example\/wv\?lang=en&ott=ott_1#code_verifier=[A-Za-z0-9_-]{43}$/);
  });

  it('closes the open web view when another opens, and resolves closed when the player closes it', async () => {
    const { platform, launcher } = setup();
    const first = await launcher.open();
    const firstClosed = vi.fn();
    void first.closed.then(firstClosed);
    const second = await launcher.open();
    await Promise.resolve();
    expect(firstClosed).toHaveBeenCalled();
    platform.closeWebView();
    await expect(second.closed).resolves.toBeUndefined();
    launcher.close(); // nothing open: a no-op
  });

  it('of two open() calls (a double tap), shows the one called last, whose token is the one the service issued last', async () => {
    // Before, both token requests raced and the answer that arrived last was shown: when the service had issued that
    // token first, the newer one had replaced it, and the player saw "token replaced by a newer one".
    const { emu, platform } = setup();
    const fetch = platform.fetch;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let relayCalls = 0;
    let failNext = false;
    platform.fetch = async (input, init) => {
      if (failNext) return (failNext = false), new Response('{}', { status: 500 });
      const answer = await fetch(input, init);
      if (relayCalls++ === 0) await held; // the first token is issued at once; its answer comes back late
      return answer;
    };
    const launcher = new WebViewLauncher({ platform, relay: { url: RELAY, headers: { authorization: 'Bearer player-1' } } });
    const first = launcher.open({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    await vi.waitFor(() => expect(relayCalls).toBe(1));
    const second = launcher.open({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(relayCalls).toBe(1); // the second token is asked for only once the first answer is in
    release();
    const [firstHandle, secondHandle] = await Promise.all([first, second]);
    await expect(firstHandle.closed).resolves.toBeUndefined();
    expect(platform.opened).toHaveLength(1);
    const issued = emu.state().webview.tokens.filter((token) => token.state === 'ISSUED').map((token) => token.ott);
    expect(issued).toEqual([parts(platform.opened[0]!).ott]);
    platform.closeWebView();
    await expect(secondHandle.closed).resolves.toBeUndefined();
    // A failed call does not hold the next one: it is asked for after the failure.
    failNext = true;
    const failing = launcher.open();
    const third = launcher.open();
    await expect(failing).rejects.toMatchObject({ status: 500 });
    await third;
    expect(platform.opened).toHaveLength(2);
  });

  it('opens nothing when the game closes the web view while its token is on the way (the player went back)', async () => {
    // Before, close() (and gc.dispose()) closed only a page already shown: the page asked for just before appeared
    // anyway, over a game that had moved on.
    const { platform, launcher } = setup();
    const opening = launcher.open();
    launcher.close();
    const handle = await opening;
    expect(platform.opened).toEqual([]);
    await expect(handle.closed).resolves.toBeUndefined();
    handle.close(); // a no-op
    // The next open() is not affected.
    await launcher.open();
    expect(platform.opened).toHaveLength(1);
  });

  it('closes the page at once when the game closed the web view while the platform was opening it', async () => {
    const { platform, launcher } = setup();
    const openWebView = platform.openWebView.bind(platform);
    let closedByLauncher = false;
    platform.openWebView = async (url, open) => {
      launcher.close(); // the game closes it as the platform shows it (its own code still loading)
      const handle = await openWebView(url, open);
      return { closed: handle.closed, close: () => ((closedByLauncher = true), handle.close()) };
    };
    await launcher.open();
    expect(closedByLauncher).toBe(true);
  });

  it('refuses metadata JSON cannot carry with the TypeError that says so, sending nothing (not a ConnectionError)', async () => {
    // Before, it was a ConnectionError ("Connection failed: Do not know how to serialize a BigInt"): a game reads that
    // as offline and retries, where the fix is in its own code.
    const { platform, launcher, seen } = setup();
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    for (const metadata of [{ score: 10n }, circular]) {
      const error = await launcher.open({ metadata }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/BigInt|circular/);
    }
    expect(seen).toEqual([]);
    expect(platform.opened).toEqual([]);
  });

  it('turns a relay 401 into RelayAuthError and opens nothing', async () => {
    const { platform } = setup();
    const launcher = new WebViewLauncher({ platform, relay: { url: RELAY, headers: { authorization: 'Bearer expired' } } });
    const error = await launcher.open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RelayAuthError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(platform.opened).toEqual([]);
  });

  it('gives the relay validation error for bad options, with details', async () => {
    const { launcher } = setup();
    const error = await launcher.open({ metadata: 'not an object' as never }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([{ path: 'metadata', message: expect.any(String) }]);
  });

  it('retries a 429 after its Retry-After, then opens', async () => {
    vi.useFakeTimers();
    const answers = [
      new Response(JSON.stringify({ status: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: 'slow down' }), { status: 429, headers: { 'retry-after': '2' } }),
      new Response(JSON.stringify({ data: { ott: 'ott_2', expiresIn: 60, url: 'https://view.example/wv' } }), { status: 200 }),
    ];
    const fetch = vi.fn(async () => answers.shift()!);
    const platform = createMemoryPlatform({ fetch });
    const opened = new WebViewLauncher({ platform, relay: { url: RELAY } }).open();
    await vi.advanceTimersByTimeAsync(1_999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await opened;
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(platform.opened).toHaveLength(1);
  });

  it('gives up on 429 after maxRetries with a RateLimitError', async () => {
    const limited = () => new Response(JSON.stringify({ status: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: 'slow down' }), { status: 429, headers: { 'retry-after': '0' } });
    const fetch = vi.fn(async () => limited());
    const launcher = new WebViewLauncher({ platform: createMemoryPlatform({ fetch }), relay: { url: RELAY }, maxRetries: 1 });
    await expect(launcher.open()).rejects.toBeInstanceOf(RateLimitError);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('rejects with the import error when the code of open() does not load, asking the relay for nothing', async () => {
    vi.resetModules();
    vi.doMock('../../../core/webview/open-page.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module: /open-page.js');
    });
    try {
      const { WebViewLauncher: Launcher } = await import('../../../core/webview/launcher.js');
      const fetch = vi.fn(async () => new Response('{}'));
      const platform = createMemoryPlatform({ fetch });
      const error = await new Launcher({ platform, relay: { url: RELAY } }).open().catch((caught: unknown) => caught);
      // vitest wraps a mock factory's error; a browser rejects with its own TypeError naming the chunk.
      expect((error as Error).cause ?? error).toMatchObject({ message: expect.stringMatching(/Failed to fetch dynamically imported module/) });
      expect(fetch).not.toHaveBeenCalled();
      expect(platform.opened).toEqual([]);
    } finally {
      vi.doUnmock('../../../core/webview/open-page.js');
      vi.resetModules();
    }
  });

  it('refuses a 200 from the relay without a string url and a non-empty string ott with an error naming the answer, opening nothing (a misconfigured relay, a proxy\'s 200)', async () => {
    // An empty ott opened `?ott=` before: a page the service refuses, where a missing ott gave this clear error.
    // `data: null` is refused before, by the transport, as every item read's (ResponseValidationError, below).
    for (const data of [{}, { url: 'https://view.example/wv' }, { url: 5, ott: 'ott_1' }, { ott: 'ott_1' }, { url: 'https://view.example/wv', ott: '' }]) {
      const fetch = vi.fn(async () => new Response(JSON.stringify({ data }), { status: 200 }));
      const platform = createMemoryPlatform({ fetch });
      const error = await new WebViewLauncher({ platform, relay: { url: RELAY } }).open().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(`gc.webview.open: the relay answered with an unexpected body: ${JSON.stringify(data)}`);
      expect(platform.opened).toEqual([]);
    }
    const platform = createMemoryPlatform({ fetch: async () => new Response(JSON.stringify({ data: null }), { status: 200 }) });
    const error = await new WebViewLauncher({ platform, relay: { url: RELAY } }).open().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ResponseValidationError', status: 200, message: 'The 200 response has no OneTimeToken data' });
    expect(platform.opened).toEqual([]);
  });

  it('opens no page whose address is not absolute http(s), on any platform, by the rule the relay checks webviewUrl with', async () => {
    // The memory platform opens whatever it is given, as React Native's Linking and web view host do: the check is
    // the launcher's own. core/webview/open-page.ts repeats WEB_PAGE_PATTERN (no shared chunk); both agree here.
    const urls = ['otherapp://wv', 'intent://wv#Intent;scheme=otherapp;end', 'file:///C:/page.html', 'javascript:alert(1)', 'data:text/html,x', '/webview', '//view.example/wv', 'https:/view.example', ' https://view.example/wv', 'https://view.example/wv', 'HTTP://view.example/wv?lang=en'];
    for (const url of urls) {
      const data = { ott: 'ott_1', expiresIn: 60, url };
      const platform = createMemoryPlatform({ fetch: async () => new Response(JSON.stringify({ data }), { status: 200 }) });
      const opened = await new WebViewLauncher({ platform, relay: { url: RELAY } }).open().then(() => true, (error: Error) => {
        expect(error.message).toBe(`gc.webview.open: the relay answered with an unexpected body: ${JSON.stringify(data)}`);
        return false;
      });
      expect({ url, opened }).toEqual({ url, opened: WEB_PAGE_PATTERN.test(url) });
      expect(platform.opened).toHaveLength(opened ? 1 : 0);
    }
    expect(urls.filter((url) => WEB_PAGE_PATTERN.test(url))).toEqual(['https://view.example/wv', 'HTTP://view.example/wv?lang=en']);
  });

  it('posts to the relay route of RELAY_ROUTES (the lazily loaded code repeats it)', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ status: 503, error: 'Service Unavailable', code: 'INTERNAL_ERROR', message: 'down' }), { status: 503 }));
    const launcher = new WebViewLauncher({ platform: createMemoryPlatform({ fetch }), relay: { url: RELAY } });
    await expect(launcher.open()).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(fetch.mock.calls.map((call: unknown[]) => String(call[0]))).toEqual([`${RELAY}${RELAY_ROUTES.webviewToken}`]);
  });

  it('does not retry other failures (a token request is not de-duplicated)', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ status: 503, error: 'Service Unavailable', code: 'INTERNAL_ERROR', message: 'down' }), { status: 503, headers: { 'retry-after': '1' } }));
    const launcher = new WebViewLauncher({ platform: createMemoryPlatform({ fetch }), relay: { url: RELAY } });
    await expect(launcher.open()).rejects.toMatchObject({ status: 503, code: 'INTERNAL_ERROR' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
