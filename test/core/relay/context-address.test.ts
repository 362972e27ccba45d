/**
 * The client's address for `failedAuthLimit` when the relay is mounted without `toNodeHandler` and without a
 * `clientAddress`: read from what the runtime's server passes beside the request. Before, such a request had no
 * address, and `failedAuthLimit: true` limited nothing (every guess 401, none 429) in Hono on Node, Bun and Deno.
 * Bun and Deno themselves: test/runtimes (their entries hand `server`/`info` on whole).
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const servers: ServerType[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Serves `fetch` with @hono/node-server on a free port; its base URL. */
async function served(fetch: (request: Request, env: unknown) => Response | Promise<Response>): Promise<string> {
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started));
  });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Eleven logins with a wrong token: the statuses. */
async function guesses(base: string, path: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer wrong' }, body: '{"sessions":[]}' });
    statuses.push(response.status);
    await response.arrayBuffer();
  }
  return statuses;
}

const LIMITED = [...Array<number>(10).fill(401), 429];

describe('failedAuthLimit without clientAddress, mounted with Hono on Node', () => {
  it("app.mount('/campaign', relay.fetch): the socket's address from Hono's bindings", async () => {
    const { relay } = relayOverFakeService({ failedAuthLimit: true, basePath: '/' });
    const app = new Hono();
    app.mount('/campaign', relay.fetch);
    expect(await guesses(await served(app.fetch), `/campaign${RELAY_ROUTES.playtime}`)).toEqual(LIMITED);
  });

  it('(c) => relay.fetch(c.req.raw, c.env), and the relay served by @hono/node-server directly', async () => {
    const { relay } = relayOverFakeService({ failedAuthLimit: true });
    const app = new Hono();
    app.all('/campaign/*', (c) => relay.fetch(c.req.raw, c.env));
    expect(await guesses(await served(app.fetch), `/campaign${RELAY_ROUTES.playtime}`)).toEqual(LIMITED);
    const direct = relayOverFakeService({ failedAuthLimit: true }).relay;
    expect(await guesses(await served(direct.fetch), `/campaign${RELAY_ROUTES.playtime}`)).toEqual(LIMITED);
  });
});

describe("the address in a runtime's second argument", () => {
  const post = () => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'mallory', { authorization: 'Bearer wrong' });
  const statuses = async (context: () => unknown, options = {}) => {
    const { relay } = relayOverFakeService({ failedAuthLimit: true, ...options });
    const seen: number[] = [];
    for (let i = 0; i < 11; i++) seen.push((await relay.fetch(post(), context())).status);
    return seen;
  };

  // Shapes from the runtimes' documented types: Bun's `Server.requestIP(request): SocketAddress | null`, Deno's
  // `ServeHandlerInfo.remoteAddr: Deno.NetAddr`.
  it("Bun's server.requestIP and Deno's info.remoteAddr", async () => {
    expect(await statuses(() => ({ requestIP: () => ({ address: '203.0.113.5', family: 'IPv4', port: 5000 }) }))).toEqual(LIMITED);
    expect(await statuses(() => ({ remoteAddr: { transport: 'tcp', hostname: '203.0.113.6', port: 5000 } }))).toEqual(LIMITED);
  });

  it("a Worker's bindings, no context, or a requestIP that throws or gives null: not limited, as before", async () => {
    const unlimited = Array<number>(11).fill(401);
    expect(await statuses(() => ({ API_KEY: 'x', KV: {} }))).toEqual(unlimited);
    expect(await statuses(() => undefined)).toEqual(unlimited);
    expect(await statuses(() => ({ requestIP: () => null }))).toEqual(unlimited);
    expect(await statuses(() => ({ requestIP: () => { throw new Error('closed'); } }))).toEqual(unlimited);
  });

  it("the game's clientAddress wins over the context", async () => {
    const keys: Array<string | null> = [];
    const clientAddress = (request: Request) => (keys.push(request.headers.get('x-client')), undefined);
    expect(await statuses(() => ({ remoteAddr: { hostname: '203.0.113.7' } }), { clientAddress })).toEqual(Array<number>(11).fill(401));
    expect(keys).toHaveLength(11);
  });
});

describe('failedAuthLimit with no address to limit', () => {
  it('warns once per relay, naming what to pass; a relay that has addresses says nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { relay } = relayOverFakeService({ failedAuthLimit: true });
      for (let i = 0; i < 3; i++) await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, 'alice'));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(/^createRelay: failedAuthLimit is on but a request came with no client address.*clientAddress/);
      warn.mockClear();
      const withAddress = relayOverFakeService({ failedAuthLimit: true, clientAddress: () => '203.0.113.9' }).relay;
      await withAddress.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, 'alice'));
      const without = relayOverFakeService({}).relay;
      await without.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, 'alice'));
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });
});
