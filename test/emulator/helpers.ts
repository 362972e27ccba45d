// Shared test helpers: a fixed clock, one call path into an emulator (in-process or HTTP), valid request bodies,
// PKCE pairs and a local webhook receiver.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '@noble/hashes/sha2.js';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type * as z from 'zod/mini';
import type { ErrorDetail } from '../../core/schema/errors.js';
import { check } from '../../core/schema/validate.js';
import { createEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index.js';
import { base64Url } from '../../emulator/ids.js';

/** The emulator clock of every test: a fixed instant moved only by advanceClock. */
export const T0 = Date.parse('2025-06-01T12:00:00.000Z');
export const DAY_MS = 24 * 60 * 60 * 1000;
export const BASE = 'http://emulator.local';

/** ISO timestamp `offsetMs` after T0. */
export function at(offsetMs = 0): string {
  return new Date(T0 + offsetMs).toISOString();
}

/** An in-process emulator on the fixed clock. */
export function emulatorAtT0(options: EmulatorOptions = {}): Emulator {
  return createEmulator({ clock: { now: () => T0 }, ...options });
}

export interface Answer {
  status: number;
  // Tests read arbitrary JSON; the response schemas check the shape where it matters.
  body: any;
  headers: Headers;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as given (with `contentType`). */
  raw?: string;
  contentType?: string | null;
  /** API key; null sends no Authorization header. Defaults to the Server key. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** A caller bound to an emulator: `call('POST', '/v1/...', { body })` -> status, parsed JSON body, headers. */
export function caller(emulator: Emulator, base = BASE) {
  return async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? emulator.serverKey : options.key;
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    const contentType = options.contentType === undefined ? (body !== undefined ? 'application/json' : null) : options.contentType;
    if (contentType !== null) headers['content-type'] = contentType;
    const response = await emulator.fetch(new Request(base + path, { method, headers, ...(body !== undefined ? { body } : {}) }));
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
}

/** A valid single playtime session body, starting at T0 and lasting `durationSeconds`. */
export function sessionBody(sessionId: string, overrides: Record<string, unknown> = {}) {
  return { sessionId, userId: 'user_1', durationSeconds: 60, startedAt: at(-60_000), endedAt: at(0), ...overrides };
}

/** A valid payment item. */
export function paymentBody(transactionId: string, overrides: Record<string, unknown> = {}) {
  return { userId: 'user_1', transactionId, productId: 'gem_pack_1', productName: 'Gem Pack', amount: 4.99, currency: 'USD', purchasedAt: at(-1000), ...overrides };
}

/** A PKCE verifier and its S256 challenge. */
export function pkcePair(seed = 'a'): { verifier: string; challenge: string } {
  const verifier = seed.repeat(43).slice(0, 43);
  return { verifier, challenge: base64Url(sha256(new TextEncoder().encode(verifier))) };
}

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A node:http webhook receiver on 127.0.0.1:0 answering `status` (or never answering when `hang`). */
export async function startReceiver(options: { status?: number; hang?: boolean } = {}) {
  const received: ReceivedDelivery[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (!options.hang) res.writeHead(options.status ?? 204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    received,
    /** Parsed bodies of the deliveries received so far. */
    events: () => received.map((delivery) => JSON.parse(delivery.body) as { id: string; type: string; createdAt: string; callbackId?: string; data: Record<string, unknown> }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Registers a webhook for each event type to `url` (no retries) with the emulator's Server key. */
export async function subscribe(emulator: Emulator, url: string, eventTypes: string[]): Promise<void> {
  const call = caller(emulator);
  for (const eventType of eventTypes) {
    const answer = await call('POST', '/v1/server/webhooks', { body: { url, eventType, retryCount: 0, timeoutMs: 5000 } });
    if (answer.status !== 201) throw new Error(`webhook registration failed: ${JSON.stringify(answer.body)}`);
  }
}

/**
 * The details the shared schema gives for `value`: tests compare the emulator's answer with these, so they pin
 * that the emulator reports the schema's own paths and messages without repeating the message texts.
 */
export function problemsOf(schema: z.ZodMiniType, value: unknown): ErrorDetail[] {
  const checked = check(schema, value);
  if (checked.success) throw new Error(`expected ${JSON.stringify(value)} to break the schema`);
  return checked.details;
}

/** The `error` of a FAILED bulk item: `path: message` of each problem, joined with `; `. */
export function itemErrorOf(schema: z.ZodMiniType, value: unknown): string {
  return problemsOf(schema, value).map((d) => `${d.path}: ${d.message}`).join('; ');
}

/** What {@link useSubscribedEmulator} gives each test: the current emulator, its caller and the receiver. */
export interface SubscribedEmulator {
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  emulator: Emulator;
  call: ReturnType<typeof caller>;
}

/**
 * Registers, for the calling `describe`: one local webhook receiver, and before each test a fresh emulator at T0
 * subscribed to `eventTypes`, closed after the test once its deliveries are done.
 */
export function useSubscribedEmulator(eventTypes: string[]): SubscribedEmulator {
  const context = {} as SubscribedEmulator;
  beforeAll(async () => {
    context.receiver = await startReceiver();
  });
  afterAll(() => context.receiver.close());
  beforeEach(async () => {
    context.receiver.received.length = 0;
    context.emulator = emulatorAtT0();
    context.call = caller(context.emulator);
    await subscribe(context.emulator, context.receiver.url, eventTypes);
  });
  afterEach(async () => {
    await context.emulator.webhooksIdle();
    await context.emulator.close();
  });
  return context;
}
