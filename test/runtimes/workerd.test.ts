// The server stories on workerd (Cloudflare Workers' runtime), dated 2024-10-14, the minimum the docs name; and the
// relay on a Worker dated before it, where workerd cannot answer one request from another's upstream call (its bare
// 500 "Promise will never complete"). The relay merges no requests on any Worker (from 2024-10-14 workerd still
// cancels a request waiting for another's upstream call as hung: server-stories.ts, one player's devices).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { launch, type Launched } from './harness.js';
import { concurrentPlayers, GAME_ORIGIN, serverStories, waitedDelivery } from './server-stories.js';

serverStories('workerd');

// On 4320f9f the build failed: rate-limiter-flexible's index loads its cluster limiter (`cluster`, `crypto`).
it('game-campaign-sdk/server bundles for a Worker with plain esbuild (neutral platform, no shim) and reaches no Node built-in', async () => {
  const built = await build({
    entryPoints: [fileURLToPath(new URL('../../dist/server.js', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(built.metafile.inputs);
  expect(inputs.filter((file) => file.includes('rate-limiter-flexible/'))).not.toEqual([]);
  expect(inputs.filter((file) => /^node:|RateLimiterCluster|ExpressBrute/.test(file))).toEqual([]);
  expect(Object.values(built.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path))).toEqual([]);
});

// 2024-10-13: the day before the minimum. 2024-03-03: a Worker that still has `importScripts` (workerd's
// `no_importscripts` is dated 2024-03-04). 2021-11-03: older than workerd's `navigator` global too (`global_navigator`,
// 2022-03-21), as long-lived Workers and old templates are dated.
describe.each(['2024-10-13', '2024-03-03', '2021-11-03'])('the relay on a Worker dated %s (before 2024-10-14)', (compatibilityDate) => {
  let emulator: RunningEmulator;
  let served: Launched;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    served = await launch('workerd', { emulatorUrl: emulator.url, serverKey: emulator.serverKey, gameOrigin: GAME_ORIGIN, compatibilityDate });
  });
  afterAll(async () => {
    await served?.stop();
    await emulator?.close();
  });

  it('answers concurrent players each with their own results, never a bare 500', async () => {
    await concurrentPlayers(served.url, emulator, `old-worker-${compatibilityDate}`);
  });

  it("the webhook receiver's waitFor, which a delivery (another request) would settle, refuses at once saying why: never a bare 500", async () => {
    const { status, body } = await waitedDelivery(served.url, `old-worker-wait-${compatibilityDate}`);
    expect([status, body]).toEqual([599, { threw: expect.stringMatching(/^TypeError: receiver\.waitFor cannot wait on a Cloudflare Worker dated before 2024-10-14: .* Set compatibility_date to 2024-10-14 or later\.$/) }]);
  });
});
