/**
 * Servers a test file starts on loopback, each closed after its test: `const listen = loopbackServers();` then
 * `const port = await listen(server)`. One place for the set-up the Node server tests repeated.
 */
import type { AddressInfo, Server } from 'node:net';
import { afterEach } from 'vitest';

/** Registers the clean-up in the calling file; returns `listen(server)`, which resolves with the port it listens on. */
export function loopbackServers(): (server: Server) => Promise<number> {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });
  return async (server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
}
