/**
 * The fetch `CampaignServer` sends with: the caller's (or the runtime's), with two guards a game server needs and
 * a game client does not carry (its bundle has no room, and its relay is the game's own server):
 * - a redirect is not followed. fetch follows one by default: a 301, 302 or 303 turns a POST into a GET without
 *   its body (a redeem then reads as the 404 or 405 of another request), and a 307 or 308 sends the body (the
 *   player's id, the payment) on to whatever address the answer names, taking that address's answer as the
 *   service's. assumed: the spec's base addresses answer every request themselves, so a redirect is a wrong
 *   `baseUrl` or a proxy in the way, reported with where it pointed.
 * - a response body is read only up to `maxBytes`: a proxy or a broken service that streams without end would
 *   otherwise be held in memory whole (300 MB read as 1.1 GB of the process) until the time-out.
 * - a body is parsed only when its JSON holds at most one value per {@link BYTES_PER_RESPONSE_VALUE} bytes of `maxBytes`
 *   (at least {@link MIN_RESPONSE_VALUES}): a parse's memory follows its values, not its bytes, and 32 MiB of
 *   `[{},{},...]` took 715 MiB of the heap to parse, `[[[...]]]` 928 MiB (a process with 512 MiB died); at the default
 *   cap at most 2,097,152 values, about 135 MiB of the heap at their densest.
 * It also notes which error answers carry the spec's error body (error-body.ts), which the relay asks.
 */
import type { FetchLike } from '../platform.js';
import { readCapped } from '../http/read-capped.js';
import { holdsMoreValuesThan } from '../schema/json-limits.js';
import { noteErrorBody } from './error-body.js';

/**
 * The default of `CampaignServerOptions.maxResponseBytes`. assumed: 32 MiB, far above the largest answer the spec
 * shows (a bulk result of 1000 payment records is under 1 MiB; a webhook's delivery logs are not paged).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * Bytes of `maxResponseBytes` per JSON value an answer may hold. assumed: 16. The spec's answers take more per value
 * (a delivery log entry about 18, a payment record about 25, a bulk item result with a 1-character `sessionId` 12 over
 * at most 4,000 values, under {@link MIN_RESPONSE_VALUES}); what is denser (`{},` is 3 bytes a value, `0,` 2) is built to
 * cost memory, not an answer.
 */
export const BYTES_PER_RESPONSE_VALUE = 16;

/** The fewest values an answer may hold whatever `maxResponseBytes` is, so a tight cap still reads a 1000-item bulk result. */
export const MIN_RESPONSE_VALUES = 10_000;

/** The statuses fetch follows (304 Not Modified is not one). */
const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/**
 * `fetch` (read at each call, so a global replaced later is used) with redirects not followed and bodies capped
 * at `maxBytes`. A redirect answers as an error response of its own status whose message says where it pointed; a
 * body over the cap fails its `text()` (a `ConnectionError` for the caller, retried where a dropped connection is).
 * @throws TypeError when `maxBytes` is not a whole number >= 1, or `fetch` is given and not a function
 */
export function serverFetch(fetch: FetchLike | undefined, maxBytes = DEFAULT_MAX_RESPONSE_BYTES): FetchLike {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new TypeError(`maxResponseBytes must be a whole number of bytes >= 1, got ${maxBytes}`);
  // Else every call failed as a ConnectionError ("is not a function"), retried as if the network were down.
  if (fetch != null && typeof fetch !== 'function') throw new TypeError(`fetch must be a function (a fetch implementation), got ${typeof fetch}`);
  const maxValues = Math.max(MIN_RESPONSE_VALUES, Math.floor(maxBytes / BYTES_PER_RESPONSE_VALUE));
  return async (input, init) => {
    const send = fetch ?? globalThis.fetch;
    const response = await send(input, { ...init, redirect: 'manual' });
    // A browser (dangerouslyAllowBrowser) hides a manual redirect as status 0: left as it is, an error of status 0.
    if (REDIRECT_STATUSES.includes(response.status)) return redirected(response);
    // The body read through the cap: `text` is all the transport reads (a Response of our own would need
    // ReadableStream's constructor, which a Worker dated before 2022-11-30 lacks). A response without a web stream
    // (node-fetch's body is a Node stream; a test's stand-in may have `text` alone) is not capped; its `text` is wrapped
    // only on an error answer, to note the body. Defined, not
    // assigned: @hono/node-server (toNodeHandler) puts a Response in the global whose `text` is read-only.
    const capped = async () => {
      const bytes = await readCapped(response, maxBytes);
      if (!bytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`the response body is over ${maxBytes} bytes (maxResponseBytes), so it was not read`);
      }
      const body = new TextDecoder().decode(bytes);
      // Before the transport's JSON.parse: a body built to fill the heap is refused as one over the byte cap is. Each value
      // takes a character at least, so only a body longer than the limit is counted (never a relay's bulk answer: scanned, it
      // was about a tenth of what the relay costs beyond the bare proxy in `npm run bench`). Only JSON: other text (a proxy's HTML page) is
      // no JSON.parse's work, and its commas are not values. Nesting is not limited: V8's and JavaScriptCore's
      // JSON.parse do not recurse (1,000,000 levels parsed on Node 20, Bun 1.4 and Deno 2), and each level is a value.
      if (body.length > maxValues && /^\s*[[{]/.test(body) && holdsMoreValuesThan(body, maxValues)) {
        throw new Error(`the response body holds more than ${maxValues} JSON values (one per ${BYTES_PER_RESPONSE_VALUE} bytes of maxResponseBytes), so it was not parsed`);
      }
      return body;
    };
    const stream = typeof response.body?.getReader == 'function';
    if (response.ok && !stream) return response;
    // An error answer's body is noted as the spec's error body or not (error-body.ts), for the relay.
    const read = stream ? capped : response.text.bind(response);
    const text = async () => {
      const body = await read();
      if (!response.ok) noteErrorBody(response, body);
      return body;
    };
    if (stream) return Object.defineProperty(response, 'text', { value: text });
    try {
      return Object.defineProperty(response, 'text', { value: text });
    } catch {
      // A frozen stand-in without a stream: read as it is (its error typed by its status, as before).
      return response;
    }
  };
}

/**
 * The redirect as an error answer of its own status, its body a message naming where it pointed. The code is the one
 * its status gives (`UNKNOWN`); written out, since the transport keeps the message of a body with a `code` only.
 */
async function redirected(response: Response): Promise<Response> {
  await response.body?.cancel().catch(() => undefined);
  const location = response.headers.get('location');
  const message =
    `The service answered ${response.status} redirecting to ${location ?? '(no location)'}: CampaignServer does not follow redirects ` +
    '(the request would go to another address, or change method). Check the environment (its baseUrl) and any proxy in between.';
  return new Response(JSON.stringify({ status: response.status, code: 'UNKNOWN', message }), { status: response.status, headers: response.headers });
}
