// `npm run tour`: the emulator, a relay and the tour through every part, then a clean stop.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

it('npm run tour runs the tour end to end and stops cleanly on SIGTERM', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/tour.ts'], { cwd: ROOT, env: { ...process.env, EMULATOR_PORT: '0', RELAY_PORT: '0' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('Ctrl+C stops.') && resolve());
    child.once('exit', (code) => reject(new Error(`exited early (${code}):\n${output}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);

  expect(output).toMatch(/^Emulator {2}http:\/\/127\.0\.0\.1:\d+$/m);
  expect(output).toContain('1. {"en":"Spring Festival","ko":"봄 축제"} with 8 creators: LUNA7, PIXEL, NOVA1, KAIZN, RIVER, ZEPHR, MOCHI, BLAZE');
  expect(output).toMatch(/^2\. Playtime through the relay: \{"results":\[\{"sessionId":"[0-9a-f-]{36}","status":"SUCCESS"\}\]\}$/m);
  expect(output).toMatch(/^3\. Coupon DAILY: success=true; verified webhook coupon\.redeemed \(callbackId tour-\d+\)$/m);
  expect(output).toMatch(/^4\. Boost change through the relay: 200 \{"data":\{"userId":"user_boost_40d","campaignId":"cmp_spring_festival","creatorKey":"NOVA1",/m);
});
