/**
 * The loopback set-up the relay rows and the backlog row share: the emulator on HTTP (`startEmulator`), and
 * a relay in front of it on a node:http server (`toNodeHandler`), as a game server would run it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '../adapters/node/index.js';
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
  close(): Promise<void>;
}

/** Starts the emulator and a relay in front of it, both on 127.0.0.1 ports of their own. */
export async function startLoopback(emulatorOptions: EmulatorOptions = {}, relayOptions: Partial<RelayOptions> = {}): Promise<Loopback> {
  const emulator = await startEmulator({ port: 0, ...emulatorOptions });
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url }, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get(USER_HEADER) ?? '' }), ...relayOptions });
  const http = createServer(toNodeHandler(relay));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    emulator,
    server,
    relayUrl: `http://127.0.0.1:${port}/campaign`,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await emulator.close();
    },
  };
}
