// The server stories on workerd (Cloudflare Workers' runtime), dated 2024-10-14, the minimum the docs name; and the
// relay on a Worker dated before it, where workerd cannot answer one request from another's upstream call (its bare
// 500 "Promise will never complete" on today's main): the relay detects the date and does not merge requests there.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { launch, type Launched } from './harness.js';
import { concurrentPlayers, GAME_ORIGIN, serverStories } from './server-stories.js';

serverStories('workerd');

describe('the relay on a Worker dated before 2024-10-14', () => {
  let emulator: RunningEmulator;
  let served: Launched;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    served = await launch('workerd', { emulatorUrl: emulator.url, serverKey: emulator.serverKey, gameOrigin: GAME_ORIGIN, compatibilityDate: '2024-10-13' });
  });
  afterAll(async () => {
    await served?.stop();
    await emulator?.close();
  });

  it('answers concurrent players each with their own results, never a bare 500', async () => {
    await concurrentPlayers(served.url, emulator, 'old-worker');
  });
});
