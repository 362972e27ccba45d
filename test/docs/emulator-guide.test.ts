/**
 * docs/guides/emulator.md's claims a test of a game's meets first: the emulator rate-limits each key at 50 requests
 * a second unless told otherwise (`faults.rateLimitPerSecond`, 0 for none), and at most 100 webhook receivers are
 * registered at once (one more answers 400 `BAD_REQUEST`). A test registering 100 receivers in a loop met the rate
 * limit first, which the guide did not name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_FAULTS } from '../../emulator/index.js';

const GUIDE = readFileSync(join(import.meta.dirname, '../../docs/guides/emulator.md'), 'utf8').replace(/\s+/g, ' ');

describe('docs/guides/emulator.md: the rate limit and the receivers cap', () => {
  it('names the default rate limit the emulator has', () => {
    expect(GUIDE).toContain(`${DEFAULT_FAULTS.rateLimitPerSecond} requests per second per key`);
    expect(DEFAULT_FAULTS).toEqual({ errorRate: 0, latencyMs: 0, dropRate: 0, rateLimitPerSecond: 50 });
  });

  it('by default, requests of one key past the limit answer 429 RATE_LIMITED with Retry-After', async () => {
    const emulator = createEmulator();
    try {
      // Sent at once, in process: far more than 50 within the limiter's second, whatever the machine's load.
      const answers = await Promise.all(Array.from({ length: 120 }, () =>
        emulator.fetch(new Request('http://emulator/v1/server/payments/tx-none', { headers: { authorization: `Bearer ${emulator.serverKey}` } }))));
      const limited = answers.filter((answer) => answer.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(await limited[0]!.json()).toMatchObject({ code: 'RATE_LIMITED' });
      expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await emulator.close();
    }
  });

  it('with rateLimitPerSecond 0, a test registers 100 receivers in a loop, and the 101st answers 400 BAD_REQUEST', async () => {
    const emulator = createEmulator({ faults: { rateLimitPerSecond: 0 } });
    try {
      const register = (i: number) => emulator.fetch(new Request('http://emulator/v1/server/webhooks', {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:9/hook-${i}`, eventType: 'coupon.redeemed' }),
      }));
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await register(i)).status);
      expect(new Set(statuses)).toEqual(new Set([201]));
      const extra = await register(100);
      expect([extra.status, ((await extra.json()) as { code: string }).code]).toEqual([400, 'BAD_REQUEST']);
    } finally {
      await emulator.close();
    }
  });
});
