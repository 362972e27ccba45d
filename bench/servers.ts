/**
 * The loopback set-up the relay rows and the backlog row share: the emulator on HTTP (`startEmulator`), a
 * relay in front of it on a node:http server (`toNodeHandler`), as a game server would run it, and the bare
 * proxy the relay is measured against, on the same server stack.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler, type FetchHandler } from '../adapters/node/index.js';
import { CampaignServer, createRelay, type RelayOptions } from '../core/server/index.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/index.js';

/** The header the bench's `authenticate` reads the player from (a game would check its own session token). */
export const USER_HEADER = 'x-bench-user';

export interface Loopback {
  emulator: RunningEmulator;
  /** The Server API client, straight to the emulator: the direct path. */
  server: CampaignServer;
  /** The relay's mount URL, e.g. `http://127.0.0.1:40123/campaign`. */
  relayUrl: string;
  /** Where the bare proxy ({@link bareProxy}) takes a playtime batch, e.g. `http://127.0.0.1:40124/`. */
  bareProxyUrl: string;
  close(): Promise<void>;
}

/** Starts the emulator and a relay in front of it, both on 127.0.0.1 ports of their own. */
export async function startLoopback(emulatorOptions: EmulatorOptions = {}, relayOptions: Partial<RelayOptions> = {}): Promise<Loopback> {
  const emulator = await startEmulator({ port: 0, ...emulatorOptions });
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url }, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get(USER_HEADER) ?? '' }), ...relayOptions });
  const relayHttp = await listen(relay);
  const bareHttp = await listen(bareProxy(`${emulator.url}/v1/server/playtime/sessions/bulk`, emulator.serverKey));
  return {
    emulator,
    server,
    relayUrl: `${relayHttp.url}/campaign`,
    bareProxyUrl: `${bareHttp.url}/`,
    close: async () => {
      await Promise.all([relayHttp.close(), bareHttp.close()]);
      await emulator.close();
    },
  };
}

/**
 * The floor any relay pays (DESIGN section 11): it reads the body, `JSON.parse`, `JSON.stringify` and
 * forwards it with the same `fetch` (Node's, whose keep-alive pool the relay's `CampaignServer` uses too) to
 * the same emulator endpoint, and answers with the service's answer as it came. No auth, limits, checks or
 * coalescing: everything the relay does beyond this is what the bare-proxy ratio measures.
 */
export function bareProxy(bulkUrl: string, serverKey: string): FetchHandler {
  const headers = { authorization: `Bearer ${serverKey}`, accept: 'application/json', 'content-type': 'application/json' };
  return {
    fetch: async (request) => {
      const body: unknown = JSON.parse(await request.text());
      const upstream = await fetch(bulkUrl, { method: 'POST', headers, body: JSON.stringify(body) });
      return new Response(await upstream.text(), { status: upstream.status, headers: { 'content-type': 'application/json; charset=utf-8' } });
    },
  };
}

/** `handler` on a node:http server at a 127.0.0.1 port of its own, through `toNodeHandler` as the relay runs. */
async function listen(handler: FetchHandler): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
