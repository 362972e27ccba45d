/**
 * `npm start`: the local emulator, the sample game server (relay, toy login, webhook feed) and the sample game
 * page, all on 127.0.0.1 with no network and no keys to fetch. Prints one URL to open. Ctrl-C or SIGTERM stops
 * everything. Ports: EMULATOR_PORT (default 8787) and PORT (default 8788); 0 picks free ones. CORS_ORIGINS (comma
 * separated) replaces the page origins the game server answers across origins (default: Cocos Creator's preview).
 */
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startEmulator } from 'game-campaign-sdk/emulator';
import { startGameServer } from '../samples/game-server/server.js';

// The page loads the SDK's browser bundle from dist/; a fresh clone builds it once (npm install runs no build).
if (!existsSync(new URL('../dist/game-campaign.iife.js', import.meta.url))) {
  console.log('Building the SDK once (dist/ is missing)…');
  execFileSync(process.execPath, ['scripts/build.mjs', '--local'], { stdio: 'inherit', cwd: new URL('..', import.meta.url) });
}

const emulator = await startEmulator({ port: Number(process.env['EMULATOR_PORT'] ?? 8787) });
const corsOrigins = process.env['CORS_ORIGINS']?.split(',').map((origin) => origin.trim());
const game = await startGameServer({ emulator, port: Number(process.env['PORT'] ?? 8788), corsOrigins });

console.log(`
  Open ${game.url}

  Emulator   ${emulator.url}   (state: ${emulator.url}/_emulator/state)
  Client key ${emulator.clientKey}
  Server key ${emulator.serverKey}
  Relay      ${game.url}/campaign

Ctrl+C stops.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // Whatever hangs, the process is gone within 5 s.
  setTimeout(() => process.exit(1), 4_000).unref();
  await Promise.allSettled([game.close(), emulator.close()]);
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
