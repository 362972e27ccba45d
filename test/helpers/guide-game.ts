/**
 * What the docs suites that run a guide's browser example on a page need: the emulator, a real relay in front of it
 * that signs players in by their login token, the game's files served on one origin with the relay at `/campaign`,
 * and Chromium.
 */
import type { Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { launchChromium } from './chromium.js';
import { serveGame, type GameFiles } from './game-server.js';

export interface GuideGame {
  emulator: RunningEmulator;
  /** The page's origin; the relay answers at `{origin}/campaign`. */
  origin: string;
  browser: Awaited<ReturnType<typeof launchChromium>>;
  close(): Promise<void>;
}

/** Starts it all; `players` maps each player the relay knows to the login token it signs them in by (a bearer token). */
export async function startGuideGame(files: GameFiles, players: Record<string, string>): Promise<GuideGame> {
  if (!existsSync(join(import.meta.dirname, '../../dist/browser.js'))) throw new Error('dist/ is missing: run `npm run build`');
  const emulator = await startEmulator({ port: 0 });
  let server: Server | undefined;
  try {
    const relay = createRelay({
      server: new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } }),
      authenticate: (request) => {
        const player = Object.entries(players).find(([, token]) => request.headers.get('authorization') === `Bearer ${token}`);
        return player ? { userId: player[0] } : null;
      },
    });
    const served = await serveGame(files, toNodeHandler(relay));
    server = served.server;
    const browser = await launchChromium();
    return {
      emulator,
      origin: served.origin,
      browser,
      close: async () => {
        await browser.close();
        server!.close();
        await emulator.close();
      },
    };
  } catch (error) {
    server?.close();
    await emulator.close();
    throw error;
  }
}
