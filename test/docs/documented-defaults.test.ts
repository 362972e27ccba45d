/**
 * The guides' "the defaults" lines are the code's defaults. The snippet check compiles them, which says nothing of
 * their values: a default changed in code and not in the guide would have a developer copy a value that is no longer
 * the default (or believe a limit is on that is off). Each value is read from the guide's code block and compared
 * with what the code does or exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { TRACKER_DEFAULTS } from '../../core/index.js';
import {
  CampaignServer,
  createRelay,
  DEFAULT_AUTHENTICATE_TIMEOUT_MS,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_CLOCK_SKEW_MS,
  DEFAULT_COALESCE_WINDOW_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSION_AGE_MS,
  DEFAULT_RELAY_RATE_LIMIT,
} from '../../core/server/index.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../core/server/server-fetch.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../../core/relay/store-connection.js';

const ROOT = join(import.meta.dirname, '../..');

/** The `name: value` pairs of a guide's code from the line holding `marker` to the line holding `until` (inclusive). */
function documented(file: string, marker: string, until: RegExp): Map<string, string> {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.includes(marker));
  expect(start, `${file} has no line with ${marker}`).toBeGreaterThanOrEqual(0);
  const pairs = new Map<string, string>();
  for (const line of lines.slice(start)) {
    const code = line.replace(/\/\/.*$/, '');
    for (const [, name, value] of code.matchAll(/\b(\w+):\s*((?:new \w+\(\{[^}]*\}\))|(?:\{[^}]*\})|(?:'[^']*')|[^,{}]+?)\s*(?=,|$)/g)) pairs.set(name!, value!.trim());
    if (until.test(line)) break;
  }
  return pairs;
}

/** A literal of the guides' code: a number (`1 << 20`, `5 * 60_000`, `30_000`), a boolean or a quoted string. */
function literal(text: string): unknown {
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^'[^']*'$/.test(text)) return text.slice(1, -1);
  if (!/^[\d_ *<]+$/.test(text)) throw new Error(`not a literal the test reads: ${text}`);
  return text.split('*').map((factor) => factor.split('<<').map((n) => Number(n.trim().replace(/_/g, ''))).reduce((a, b) => a * 2 ** b)).reduce((a, b) => a * b);
}

describe('the defaults the guides spell out', () => {
  it("tracker guide: PlaytimeTracker's flushIntervalMs, flushAt, maxQueue, checkpointMs and backgroundTimeoutMs", () => {
    const pairs = documented('docs/guides/tracker.md', '// the defaults', /\/\/ the defaults/);
    const said = Object.fromEntries([...pairs].map(([name, value]) => [name, literal(value)]));
    expect(Object.keys(said).sort()).toEqual(['backgroundTimeoutMs', 'checkpointMs', 'flushAt', 'flushIntervalMs', 'maxQueue']);
    for (const [name, value] of Object.entries(said)) expect(value, name).toBe(TRACKER_DEFAULTS[name as keyof typeof TRACKER_DEFAULTS]);
  });

  it("tracker guide: createRelay's optional numbers, basePath, failedAuthLimit and rate limit", async () => {
    const pairs = documented('docs/guides/tracker.md', '// the rest is optional; the defaults', /^\}\);/);
    const defaults: Record<string, unknown> = {
      basePath: '/campaign',
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      coalesceWindowMs: DEFAULT_COALESCE_WINDOW_MS,
      bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
      clockSkewMs: DEFAULT_CLOCK_SKEW_MS,
      maxSessionAgeMs: DEFAULT_MAX_SESSION_AGE_MS,
      failedAuthLimit: false,
      authenticateTimeoutMs: DEFAULT_AUTHENTICATE_TIMEOUT_MS,
      // The guide and RelayOptions say 10 s, as authenticate's (the constant is not exported).
      acceptSessionTimeoutMs: 10_000,
      storeTimeoutMs: DEFAULT_STORE_TIMEOUT_MS,
    };
    // Shown as examples, not defaults: the block says "or what they are in the tables below".
    const examples = ['cors', 'origins', 'rateLimiter', 'webviewUrl'];
    for (const [name, value] of pairs) {
      if (examples.includes(name)) continue;
      expect(Object.keys(defaults), `${name} is in the block of defaults: add its default here`).toContain(name);
      expect(literal(value), name).toEqual(defaults[name]);
    }
    expect([...pairs.keys()].filter((name) => name in defaults).sort()).toEqual(Object.keys(defaults).sort());
    expect(pairs.get('rateLimiter')).toBe(`new RateLimiterMemory({ points: ${DEFAULT_RELAY_RATE_LIMIT.points}, duration: ${DEFAULT_RELAY_RATE_LIMIT.duration} })`);
    // And the code's own default basePath is the one the 404 names.
    const relay = createRelay({ server: new CampaignServer({ serverKey: 'sk_a:b' }), authenticate: () => null });
    const answer = await relay.fetch(new Request('http://relay.example/playtime/sessions', { method: 'POST' }));
    expect(((await answer.json()) as { message: string }).message).toContain(`under ${defaults['basePath']}`);
  });

  it("server guide: CampaignServer's maxRetries, timeoutMs, fetch, validateResponses and maxResponseBytes", async () => {
    const pairs = documented('docs/guides/server.md', '// the defaults, spelled out:', /validateResponses/);
    pairs.delete('serverKey');
    pairs.delete('environment');
    expect([...pairs.keys()].sort()).toEqual(['fetch', 'maxResponseBytes', 'maxRetries', 'timeoutMs', 'validateResponses']);
    expect(pairs.get('fetch')).toBe('globalThis.fetch');
    expect(literal(pairs.get('maxResponseBytes')!)).toBe(DEFAULT_MAX_RESPONSE_BYTES);

    // fetch and maxRetries: the global fetch is called, and a 503 with `Retry-After: 0` is tried 1 + maxRetries times.
    const unavailable = vi.fn(async () => new Response('{}', { status: 503, headers: { 'retry-after': '0' } }));
    vi.stubGlobal('fetch', unavailable);
    try {
      await expect(new CampaignServer({ serverKey: 'sk_a:b' }).payments.get('tx-1')).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(unavailable).toHaveBeenCalledTimes(1 + (literal(pairs.get('maxRetries')!) as number));

    // environment: the guide names its default, and a client given none calls that environment's host (the browser
    // guide's `<script>` example passes none: its reads go there).
    const said = /'(live|sandbox)' \(the default\)/.exec(readFileSync(join(ROOT, 'docs/guides/server.md'), 'utf8'))?.[1];
    expect(said, "server.md names the default environment: '<name>' (the default)").toBeDefined();
    const called: string[] = [];
    const record = async (input: string | URL | Request) => (called.push(new URL(input instanceof Request ? input.url : input).origin), Response.json({ data: { transactionId: 'tx-1' } }));
    await new CampaignServer({ serverKey: 'sk_a:b', fetch: record }).payments.get('tx-1');
    await new CampaignServer({ serverKey: 'sk_a:b', fetch: record, environment: said as 'live' | 'sandbox' }).payments.get('tx-1');
    expect(called[0]).toBe(called[1]);

    // validateResponses: a success body off the spec's shape is returned as it came.
    const offShape = async () => Response.json({ data: { transactionId: 42 } });
    await expect(new CampaignServer({ serverKey: 'sk_a:b', fetch: offShape }).payments.get('tx-1')).resolves.toEqual({ transactionId: 42 });
    expect(literal(pairs.get('validateResponses')!)).toBe(false);

    // timeoutMs: an attempt with no answer fails at that time and not before.
    vi.useFakeTimers();
    try {
      const never = (_input: unknown, init?: RequestInit) => new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
      const call = new CampaignServer({ serverKey: 'sk_a:b', fetch: never, maxRetries: 0 }).payments.get('tx-1');
      const outcome = call.then(() => 'answered', (error: { code?: string }) => error.code);
      const timeoutMs = literal(pairs.get('timeoutMs')!) as number;
      await vi.advanceTimersByTimeAsync(timeoutMs - 1);
      expect(await Promise.race([outcome, Promise.resolve('pending')])).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBe('TIMEOUT');
    } finally {
      vi.useRealTimers();
    }
  });
});
