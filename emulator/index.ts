/**
 * `game-campaign-sdk/emulator`: an in-memory stand-in for the whole Game Campaign service, with the service's rules,
 * for tests, samples and local development. Call it in-process (`fetch: emulator.fetch`) or over HTTP
 * (`startEmulator`). @see DESIGN section 9
 * @packageDocumentation
 */
// First: a declaration file keeps this statement, and with it the comment above (tsc drops it with an elided import).
export * from './fixtures.js';
import type { AddressInfo } from 'node:net';
import type { HttpBindings, ServerType } from '@hono/node-server';
import { unlessAborted } from '../core/http/exchange.js';
import { check, ownFields } from './data-only.js';
import { createApp } from './app.js';
import type { Services } from './app-env.js';
import { demoFixtures } from './fixtures.js';
import { loopbackForWildcard } from './host.js';
import { checkFixtures } from './fixture-check.js';
import { emulatorServer } from './http-errors.js';
import { isDropped, LatencyWaits } from './middleware/faults.js';
import {
  DEFAULT_FAULTS,
  DEFAULT_KEYS,
  DEFAULT_LIMITS,
  DEFAULT_PORT,
  defaultWebhookRetryDelayMs,
  FaultsRequest,
  type EmulatorKeys,
  type EmulatorLimits,
  type EmulatorOptions,
  type Faults,
} from './options.js';
import { Store, type EmulatorState } from './store.js';
import { WebhookDispatcher } from './webhook-delivery.js';
import { isBareHost, webhookHostSet } from './webhook-targets.js';

export {
  DEFAULT_FAULTS,
  DEFAULT_KEYS,
  DEFAULT_LIMITS,
  DEFAULT_PORT,
  defaultWebhookRetryDelayMs,
  type Clock,
  type EmulatorKeys,
  type EmulatorLimits,
  type EmulatorOptions,
  type Faults,
} from './options.js';
export type { EmulatorState, StoredSession, StoredDelivery, StoredToken, StoredWebviewSession } from './store.js';

/** A running emulator. */
export interface Emulator {
  /** Fetch-API handler: pass it as the SDK's `fetch` to run against the emulator in-process. */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** The Client key it accepts. */
  clientKey: string;
  /** The Server key it accepts. */
  serverKey: string;
  /** A read-only snapshot: fixtures and everything recorded (same JSON as `GET /_emulator/state`). */
  state(): EmulatorState;
  /**
   * Moves emulator time forward (token expiry, boost cooldown, timestamps).
   * @throws TypeError for a negative amount, or one that would pass 9999-12-31T23:59:59.999Z
   */
  advanceClock(ms: number): void;
  /** Changes the injected faults; fields not given stay as they are. @throws TypeError for out-of-range values */
  setFaults(faults: Partial<Faults>): void;
  /** Back to the fixtures: recorded data, webhooks, pending deliveries, clock offset, faults and request counts. */
  reset(): void;
  /** Resolves when no webhook delivery or retry is pending. */
  webhooksIdle(): Promise<void>;
  /** Cancels pending webhook retries and deliveries in flight, and ends `latencyMs` waits (nothing waits after it). */
  close(): Promise<void>;
}

/** An emulator listening on HTTP. */
export interface RunningEmulator extends Emulator {
  /** Its address, e.g. `http://127.0.0.1:8787`; on a wildcard host (`0.0.0.0`, `::`) the loopback one. */
  url: string;
  /** Stops listening, closes open connections and cancels pending work. */
  close(): Promise<void>;
}

/**
 * Creates an emulator without a port: call it through `emulator.fetch`.
 * @example
 * ```ts
 * const emulator = createEmulator();
 * const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: emulator.fetch });
 * ```
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  // Own fields only: an option the caller left out must not be read from a polluted `Object.prototype` (data-only.ts).
  options = ownFields(options);
  const clock = options.clock ?? { now: () => Date.now() };
  const keys = validKeys(options.keys ?? DEFAULT_KEYS);
  const initialFaults: Faults = { ...DEFAULT_FAULTS, ...validFaults(options.faults ?? {}) };
  if (options.fixtures !== undefined) checkFixtures(options.fixtures);
  // A copy of the fixtures as checked: a reset after the test changed its object (a function added) was a raw DataCloneError.
  const fixtures = options.fixtures === undefined ? undefined : structuredClone(options.fixtures);
  const store = new Store(clock, (now) => fixtures ?? demoFixtures(now), initialFaults, validLimits(options.limits ?? {}));
  const webhooks = new WebhookDispatcher(store, options.webhookRetryDelayMs ?? defaultWebhookRetryDelayMs, clock);
  const latency = new LatencyWaits();
  // The emulator's own host (a name or address it listens on, not a wildcard) reaches the machine it runs on, as
  // loopback does: a game server beside it may name it.
  const ownHost = options.host !== undefined && loopbackForWildcard(options.host) === options.host ? [options.host] : [];
  const webhookHosts = new Set([...webhookHostSet(options.webhookHosts ?? []), ...webhookHostSet(ownHost.filter((host) => isBareHost(host)))]);
  const services: Services = { store, webhooks, latency, keys, random: options.random ?? Math.random, webhookHosts };

  const emulator: Emulator = {
    clientKey: keys.clientKey,
    serverKey: keys.serverKey,
    fetch: async (input, init) => {
      const request = input instanceof Request && init === undefined ? input : new Request(input, init);
      // The caller's abort rejects at once; the work itself goes on, as on a server.
      const response = await unlessAborted(Promise.resolve(app.fetch(request)), request.signal, () => request.signal.reason);
      if (isDropped(response)) throw new TypeError('fetch failed', { cause: new Error('connection dropped by the emulator (fault injection)') });
      return response;
    },
    state: () => store.snapshot(),
    advanceClock: (ms) => {
      if (!Number.isFinite(ms) || ms < 0) throw new TypeError('advanceClock needs a non-negative number of ms');
      // Past the last four-digit year no timestamp can be written (Date throws beyond +275760): every answer would fail.
      if (store.now() + ms > LAST_INSTANT) throw new TypeError(`advanceClock cannot move the clock past ${new Date(LAST_INSTANT).toISOString()}`);
      store.advanceClock(ms);
    },
    setFaults: (faults) => {
      store.faults = { ...store.faults, ...validFaults(faults) };
    },
    reset: () => {
      webhooks.cancelAll();
      store.reset();
    },
    webhooksIdle: () => webhooks.idle(),
    close: async () => {
      webhooks.close();
      latency.close();
    },
  };
  const app = createApp(services, {
    state: emulator.state,
    advanceClock: emulator.advanceClock,
    setFaults: emulator.setFaults,
    faults: () => ({ ...store.faults }),
    now: () => store.iso(),
    reset: emulator.reset,
  });
  appFetch.set(emulator, (request, env) => app.fetch(request, env as Partial<HttpBindings>));
  return emulator;
}

/**
 * Starts an emulator on `host:port` (0 = a free port) with `@hono/node-server`.
 * @example
 * ```ts
 * const emulator = await startEmulator({ port: 0 });
 * console.log(emulator.url, emulator.serverKey);
 * await emulator.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  options = ownFields(options);
  const emulator = createEmulator(options);
  const host = options.host ?? '127.0.0.1';
  const handle = appFetch.get(emulator)!;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const listening = emulatorServer(handle, host);
    listening.once('error', reject);
    listening.listen(options.port ?? DEFAULT_PORT, host, () => resolve(listening));
  }).catch(async (error: unknown) => {
    await emulator.close();
    throw error;
  });
  const { port } = server.address() as AddressInfo;
  const named = loopbackForWildcard(host);
  const url = `http://${named.includes(':') ? `[${named}]` : named}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    ...emulator,
    url,
    close: () => {
      closing ??= (async () => {
        await emulator.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

/** The last instant the emulator's clock may reach: the spec's timestamps have four-digit years. */
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** The Hono handler behind each emulator, for `startEmulator` (kept off the public object). */
const appFetch = new WeakMap<Emulator, (request: Request, env: unknown) => Response | Promise<Response>>();

function validLimits(limits: Partial<EmulatorLimits>): EmulatorLimits {
  const merged = { ...DEFAULT_LIMITS, ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined)) };
  for (const [name, value] of Object.entries(merged)) {
    if (value !== Infinity && !(Number.isSafeInteger(value) && value >= 1)) throw new TypeError(`Invalid limits: ${name} must be a whole number of at least 1, or Infinity`);
  }
  return merged;
}

/**
 * The two keys, each `<key_id>:<secret>` in visible ASCII (the form the SDK's clients require, core/http/environment.ts
 * `apiEndpoint`), and different from each other. Before, any value was taken: a missing key made every request a 500
 * (`timingSafeEqual` of undefined), the same key twice passed a Client key on the Server API (spec "Authentication"
 * rule 5: 403), and a key with a space or an empty one could never authenticate (401 for every request).
 * @throws TypeError naming the key
 */
function validKeys(given: EmulatorKeys): EmulatorKeys {
  const keys = ownFields(given);
  for (const name of ['clientKey', 'serverKey'] as const) {
    const key: unknown = keys[name];
    if (typeof key !== 'string' || !KEY_FORM.test(key)) {
      throw new TypeError(`Invalid keys: ${name} must be a string <key_id>:<secret> (visible ASCII, no spaces), got ${typeof key === 'string' ? JSON.stringify(key) : String(key)}`);
    }
  }
  if (keys.clientKey === keys.serverKey) throw new TypeError('Invalid keys: clientKey and serverKey must differ (a Client key on the Server API answers 403)');
  return { clientKey: keys.clientKey, serverKey: keys.serverKey };
}

/** `<key_id>:<secret>`: visible ASCII, the id without a colon (core/http/environment.ts `apiEndpoint`). */
const KEY_FORM = /^[!-9;-~]+:[!-~]+$/;

function validFaults(faults: Partial<Faults>): Partial<Faults> {
  const checked = check(FaultsRequest, ownFields(faults));
  if (!checked.success) throw new TypeError(`Invalid faults: ${checked.details.map((d) => `${d.path} ${d.message}`).join('; ')}`);
  return Object.fromEntries(Object.entries(checked.data).filter(([, value]) => value !== undefined));
}
