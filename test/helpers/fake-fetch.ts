/**
 * A scripted stand-in for `fetch`: it records every request the code under test sends (method, URL, path,
 * query, headers, parsed body) and answers from a script, in order. Inject `fake.fetch` wherever a
 * `FetchLike` goes (`new CampaignServer({ serverKey, fetch: fake.fetch })`, a Platform, the relay).
 *
 * @example
 * ```ts
 * const fake = createFakeFetch(reply.json(503, { code: 'INTERNAL_ERROR' }), reply.ok({ id: 1 }));
 * const server = new CampaignServer({ serverKey: 'sk:secret', fetch: fake.fetch });
 * await server.payments.get('tx-1');
 * expect(fake.calls.map((c) => c.method)).toEqual(['GET', 'GET']);
 * expect(fake.last().path).toBe('/v1/server/payments/tx-1');
 * ```
 */
import { errorBody, type ErrorDetail } from '../../core/schema/errors.js';

/** One request as the fake received it. Header names are lower-case. */
export interface RecordedRequest {
  method: string;
  /** The full URL, e.g. `https://sandbox-api.game-campaign.com/v1/server/payments/tx-1?page=2`. */
  url: string;
  /** The path as sent, still percent-encoded (`/v1/server/coupons/user/a%2Fb%20c`). */
  path: string;
  /** Query parameters, decoded. */
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The body as sent, or undefined when the request had none. */
  rawBody: string | undefined;
  /** `rawBody` parsed as JSON when it is JSON, else the raw text; undefined when there was no body. */
  body: unknown;
  /** The abort signal the caller passed, if any. */
  signal: AbortSignal | undefined;
}

/** How the fake answers one request. */
export type Reply =
  | Response
  | { kind: 'response'; make: () => Response }
  | { kind: 'network-error'; error: Error }
  | { kind: 'hang' }
  | ((request: RecordedRequest) => Reply | Promise<Reply>);

/** Builders for the replies a script holds. */
export const reply = {
  /** A JSON answer with any status. */
  json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
    return { kind: 'response', make: () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }) };
  },
  /** 200 `{ data }`. */
  ok(data: unknown, headers: Record<string, string> = {}): Reply {
    return reply.json(200, { data }, headers);
  },
  /** 201 `{ data }`. */
  created(data: unknown): Reply {
    return reply.json(201, { data });
  },
  /** 200 `{ data, pagination }` of a paged list. */
  page(data: unknown[], pagination: { page: number; limit: number; total: number; totalPages: number }): Reply {
    return reply.json(200, { data, pagination });
  },
  /** 204 with no body. */
  noContent(): Reply {
    return { kind: 'response', make: () => new Response(null, { status: 204 }) };
  },
  /** An error answer in the spec's error-body shape. */
  error(status: number, code: string, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {}): Reply {
    return reply.json(status, errorBody(status, code, message, options.details), options.headers);
  },
  /** Any body text (HTML from a proxy, an empty body) with any status and headers. */
  text(status: number, text: string, headers: Record<string, string> = {}): Reply {
    return { kind: 'response', make: () => new Response(status === 204 ? null : text, { status, headers }) };
  },
  /** The request fails without a response, as fetch does for a refused or dropped connection. */
  networkError(message = 'fetch failed'): Reply {
    return { kind: 'network-error', error: new TypeError(message) };
  },
  /** Never answers; rejects with the signal's reason once the caller aborts (time-out tests, on fake timers). */
  hang(): Reply {
    return { kind: 'hang' };
  },
};

/** The fake: `fetch` to inject, and what it saw. */
export interface FakeFetch {
  /** Pass this as the `fetch` option. */
  fetch: (input: string | Request, init?: RequestInit) => Promise<Response>;
  /** Every request received, in order (including ones the script had no answer for). */
  readonly calls: RecordedRequest[];
  /** The latest request. @throws Error when none arrived */
  last(): RecordedRequest;
  /** Appends answers to the script. */
  push(...replies: Reply[]): FakeFetch;
  /** The answer for every request once the script is used up (by default: a failure naming the request). */
  otherwise(fallback: Reply): FakeFetch;
}

/**
 * A fake fetch that answers with `script`, one reply per request, in order. A request beyond the script
 * is still recorded, and fails as a connection error whose message says "no scripted reply", unless
 * `otherwise()` set a fallback.
 */
export function createFakeFetch(...script: Reply[]): FakeFetch {
  const queue = [...script];
  const calls: RecordedRequest[] = [];
  let fallback: Reply | undefined;

  const fake: FakeFetch = {
    calls,
    async fetch(input, init) {
      const request = await record(input, init);
      calls.push(request);
      const next = queue.shift() ?? fallback;
      if (next === undefined) throw new TypeError(`fake-fetch: no scripted reply for request #${calls.length} ${request.method} ${request.url}`);
      return answer(next, request);
    },
    last() {
      const request = calls.at(-1);
      if (!request) throw new Error('fake-fetch: no request was sent');
      return request;
    },
    push(...replies) {
      queue.push(...replies);
      return fake;
    },
    otherwise(reply) {
      fallback = reply;
      return fake;
    },
  };
  return fake;
}

async function answer(next: Reply, request: RecordedRequest): Promise<Response> {
  if (typeof next === 'function') return answer(await next(request), request);
  if (next instanceof Response) return next;
  switch (next.kind) {
    case 'response':
      return next.make();
    case 'network-error':
      throw next.error;
    case 'hang':
      return new Promise<Response>((_, reject) => {
        const signal = request.signal;
        if (signal?.aborted) return reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
  }
}

/** Reads a request in either calling form, without constructing a `Request` (so a GET with a body stays visible). */
async function record(input: string | Request, init: RequestInit | undefined): Promise<RecordedRequest> {
  const isRequest = typeof input !== 'string';
  const url = new URL(isRequest ? input.url : input);
  const headers = new Headers(init?.headers ?? (isRequest ? input.headers : undefined));
  const rawBody = await readBody(isRequest ? input : undefined, init);
  return {
    method: (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase(),
    url: url.href,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(headers),
    rawBody,
    body: parse(rawBody),
    signal: init?.signal ?? (isRequest ? input.signal : undefined),
  };
}

async function readBody(request: Request | undefined, init: RequestInit | undefined): Promise<string | undefined> {
  if (init?.body !== undefined && init.body !== null) {
    return typeof init.body === 'string' ? init.body : new Response(init.body).text();
  }
  if (request && request.body !== null) return request.clone().text();
  return undefined;
}

function parse(rawBody: string | undefined): unknown {
  if (rawBody === undefined) return undefined;
  try {
    return JSON.parse(rawBody);
  } catch {
    return rawBody;
  }
}
