// A game's web server for the Chromium suites: its pages and scripts, and its relay under /campaign/.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

const ROOT = join(import.meta.dirname, '../..');

/** `path -> [content type, body]`. */
export type GameFiles = Record<string, [string, string]>;

/** What a game's bundler makes of the built browser entry (ESM). */
export async function bundledBrowserEntry(): Promise<string> {
  const esm = await build({ stdin: { contents: `export * from './dist/browser.js';`, resolveDir: ROOT }, bundle: true, format: 'esm', platform: 'browser', write: false });
  return esm.outputFiles[0]!.text;
}

/**
 * Serves `files` (cached, so a navigation while offline still loads the game, as a service worker would) and
 * passes `/campaign/...` to `relay`, on 127.0.0.1 at a free port.
 */
export async function serveGame(files: GameFiles, relay: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/campaign/')) return void relay(req, res);
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0], 'cache-control': 'max-age=3600' }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * The emulator, and `files(emulator)` served with a relay in front of it whose user is the request's bearer token
 * (`Authorization: Bearer <userId>`), as the Chromium suites play it. `close()` stops both.
 */
export async function serveGameWithEmulator(files: (emulator: RunningEmulator) => GameFiles | Promise<GameFiles>): Promise<{ emulator: RunningEmulator; origin: string; close(): Promise<void> }> {
  const emulator = await startEmulator({ port: 0 });
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });
  const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('authorization')?.replace('Bearer ', '') ?? '' }) });
  const game = await serveGame(await files(emulator), toNodeHandler(relay));
  return {
    emulator,
    origin: game.origin,
    close: async () => {
      game.server.close();
      await emulator.close();
    },
  };
}
