/** Emulator row: the p50 of one 1000-item bulk playtime request, in process (`emulator.fetch`), new sessions each time. */
import { Bench } from 'tinybench';
import { createEmulator } from '../emulator/index.js';
import { sessionsOf } from './fixtures.js';
import { latency } from './latency.js';
import type { BenchRow } from './report.js';

const BASE = 'http://emulator.local';

export async function emulatorRows(): Promise<BenchRow[]> {
  // assumed: the per-key limit (50 requests/s by default) is off, or the bench would measure 429s.
  const emulator = createEmulator({ faults: { rateLimitPerSecond: 0 } });
  let body = '';
  const bench = new Bench({ time: 3_000, warmupTime: 500, throws: true });
  bench.add(
    'bulk',
    async () => {
      const response = await emulator.fetch(
        new Request(`${BASE}/v1/server/playtime/sessions/bulk`, { method: 'POST', headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json' }, body }),
      );
      const text = await response.text();
      if (response.status !== 200 || !text.includes('"successful":1000')) throw new Error(`emulator answered ${response.status}: ${text.slice(0, 300)}`);
    },
    {
      async: true,
      // Untimed: an empty store and a batch of new sessions, so every request records 1000 sessions.
      beforeEach() {
        emulator.reset();
        body = JSON.stringify({ sessions: sessionsOf('player-emulator', 1000) });
      },
    },
  );
  await bench.run();
  await emulator.close();
  const { p50, p99, samples } = latency(bench.tasks[0]!);
  return [{ section: 'emulator', name: 'emulator p50 of a 1000-item bulk request (in process)', value: p50, unit: 'ms', detail: `${samples} requests; p99 ${p99.toFixed(1)} ms` }];
}
