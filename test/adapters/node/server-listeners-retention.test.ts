/**
 * Handlers made and dropped on one long-lived server are not kept by the listeners they share there (server-listeners.ts):
 * measured in a child process run with `--expose-gc` (fixtures/dropped-handlers.ts), so `gc()` is real.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SCRIPT = 'test/adapters/node/fixtures/dropped-handlers.ts';

// Found reviewing p32's shared server listeners: each handler's CORS policy went into the server's Set for the server's
// life, and with it the handler's relay (the policy's closure shares toNodeHandler's scope). 200 dropped handlers were
// all still reachable, and a refused request got the last dropped handler's
// `Access-Control-Allow-Origin` in place of the live one's.
it('lets 200 handlers attached to one server and dropped be collected, and still answers with a live one\'s CORS', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', SCRIPT], { cwd: ROOT });
  const result = JSON.parse(stdout) as { handlers: number; reachable: number; allowOrigin: string[] };
  expect(result.handlers).toBe(200);
  expect(result.reachable).toBe(0);
  expect(result.allowOrigin).toEqual(['https://live.example']);
});
