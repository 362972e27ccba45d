/**
 * The managed SDK reads a boost change's cooldown answer as the JavaScript SDK does (HttpExchange.ErrorOf against
 * core/http/errors.ts errorFromResponse): the same messages give the same error and days remaining, on a device
 * whose locale is Turkish (where "I" lower-cases to "ı") or German as on an English one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { errorFromResponse } from '../../../core/http/errors.js';
import { compileProbe, runProbe } from './mono-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-cooldown-'));
const exe = join(work, 'cooldown-probe.exe');
afterAll(() => rmSync(work, { recursive: true, force: true }));
beforeAll(() => compileProbe('CooldownProbe', exe), 120_000);

/** Boost change answers: the emulator's message, the spec's "days remaining" capitalised, digits JavaScript's \d does not read. */
const ANSWERS: [number, string][] = [
  [400, 'Boost can be changed again in 12 days'],
  [400, 'In 3 days you can change your boost'],
  [400, 'BOOST LOCKED: 12 DAYS REMAINING'],
  [400, 'Cooldown: 1 Day Remaining'],
  [400, 'in ١٢ days'],
  [400, 'in 12 weeks'],
];

/** What the JavaScript SDK makes of each answer. */
const expected = ANSWERS.map(([status, message]) => {
  const error = errorFromResponse(status, { code: 'BAD_REQUEST', message }, new Headers(), undefined, true) as { name: string; daysRemaining?: number };
  return [message, error.name, error.daysRemaining ?? null];
});

it.each(['en-US', 'tr-TR', 'de-DE'])('reads every cooldown answer as the JavaScript SDK does, on a %s device', (culture) => {
  expect(expected.map(([, name]) => name)).toContain('BoostCooldownError');
  expect(JSON.parse(runProbe(exe, [culture, JSON.stringify(ANSWERS)]))).toEqual(expected);
});
