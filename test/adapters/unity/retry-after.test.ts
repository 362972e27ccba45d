/**
 * The managed tracker reads `Retry-After` by the JavaScript SDK's rule (Runtime/Managed/RetryAfter.cs against
 * core/http/backoff.ts): the same table (test/core/http/retry-after-cases.json) of seconds, HTTP-dates in RFC 9110's
 * three forms and values that ask for nothing, at the same "now".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import RETRY_AFTER from '../../core/http/retry-after-cases.json' with { type: 'json' };
import { compileProbe, runProbe } from './mono-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-retry-after-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('reads every value of the table as the JavaScript SDK does', () => {
  const exe = join(work, 'retry-after-probe.exe');
  compileProbe('RetryAfterProbe', exe);
  const read = JSON.parse(runProbe(exe, [join(import.meta.dirname, '../../core/http/retry-after-cases.json')])) as [string, number | null][];
  expect(Object.fromEntries(read)).toEqual(Object.fromEntries(RETRY_AFTER.cases));
}, 120_000);
