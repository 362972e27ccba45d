// `npm start`'s two servers (scripts/start.ts): the emulator and the sample game server with its relay and toy login.
import { afterAll, beforeAll } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startGameServer, type GameServer } from '../../samples/game-server/server.js';

/** The emulator and the game server, started on free ports before the calling describe block's tests, closed after. */
export function npmStartServers(): { readonly emulator: RunningEmulator; readonly game: GameServer } {
  const running = {} as { emulator: RunningEmulator; game: GameServer };
  beforeAll(async () => {
    running.emulator = await startEmulator({ port: 0 });
    running.game = await startGameServer({ emulator: running.emulator, port: 0 });
  });
  afterAll(async () => {
    await running.game?.close();
    await running.emulator?.close();
  });
  return running;
}
