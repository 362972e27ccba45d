/**
 * What a game's page reads from its relay when the player's session token grows past node:http's 16 KiB of headers:
 * a first request (a failed login, as a page makes one) and then the oversized one, each as `{ status, body }` or, when
 * the browser hides the answer (no CORS headers), `{ error }`. Used by the plain-HTTP and TLS stories of the 431.
 */
import type { Page } from 'playwright-core';
import { RELAY_ROUTES } from '../../core/relay/index.js';

export type PageAnswer = { status: number; body: unknown } | { error: string };

/** Sends both requests from `page` to the relay at `relayUrl`, one after the other (one connection, kept alive). */
export function loginThenOversizedToken(page: Page, relayUrl: string): Promise<PageAnswer[]> {
  return page.evaluate(
    async ([url, route]) => {
      const send = async (token: string) => {
        try {
          const response = await fetch(`${url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"sessions":[]}' });
          return { status: response.status, body: await response.json() };
        } catch (error) {
          return { error: String(error) };
        }
      };
      return [await send('nobody'), await send(`user:alice${'x'.repeat(20_000)}`)];
    },
    [relayUrl, RELAY_ROUTES.playtime] as const,
  );
}
