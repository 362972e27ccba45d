/**
 * The managed tracker's field checks (Runtime/Managed/FieldRules.cs over the tables scripts/generate-unity-types.ts
 * writes from core/schema) say what the TypeScript tracker's say, case by case: a finished session
 * (`checkPlaytimeItem`), `Init`'s tracker options, timing, limits and session defaults (`resolveTrackerOptions`; C#:
 * `TrackerSettings.From`) and one `Start` (`checkStartOptions`), each field given every kind of JSON value in turn
 * (csharp/FieldRulesProbe.cs on mono).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../../core/http/errors.js';
import { checkPlaytimeItem } from '../../../core/schema/playtime-rules.js';
import { checkStartOptions, resolveTrackerOptions } from '../../../core/tracker/options.js';
import { renderFieldRule, renderUnityTypes } from '../../../scripts/generate-unity-types.js';
import { compileProbe, runProbe } from './mono-probe.js';

type Fields = Record<string, unknown>;
type Table = 'session' | 'init' | 'start';

/** Every kind of JSON value a field may hold, and the edges of each rule (`undefined`: the field left out). */
const VALUES: unknown[] = [
  undefined, null, '', 'c1', 'ABCDE', 'abcde', 'ABCD', 'ABCDE\n', 'ÄBCDE', 0, 1, 20, 1.5, -3, 2147483647, 2147483648, 9007199254740991, 9007199254740992, true, [], {}, { level: 3 },
  '2026-06-01T12:00:00.000Z', '2026-06-01T12:00:00Z', '2026-02-29T12:00:00.000Z', '2024-02-29T12:00:00.000Z', '2026-06-01T24:00:00.000Z',
  '9999-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '0001-01-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '0000-02-29T00:00:00.000Z', '0000-02-30T00:00:00.000Z',
];

const SESSION: Fields = {
  sessionId: 's1', userId: 'p1', durationSeconds: 20, startedAt: '2026-06-01T12:00:00.000Z', endedAt: '2026-06-01T12:00:20.000Z', campaignId: 'c1', creatorKey: 'ABCDE', metadata: { level: 3 },
};
/** `Init`'s tracker options: the timing and limits (TrackerSettings.From in C#), then the session defaults. */
const INIT: Fields = { flushIntervalMs: 30000, flushAt: 100, maxQueue: 10000, checkpointMs: 15000, backgroundTimeoutMs: 60000, campaignId: 'c1', creatorKey: 'ABCDE' };
const BASES: Record<Table, Fields> = { session: SESSION, init: INIT, start: { campaignId: 'c1', creatorKey: 'ABCDE', metadata: { level: 3 } } };

/** Each field of each table given each value, plus a session that ends before it starts. */
function cases(): { table: Table; fields: Fields }[] {
  const all: { table: Table; fields: Fields }[] = [];
  for (const table of Object.keys(BASES) as Table[]) {
    for (const name of Object.keys(BASES[table])) {
      for (const value of VALUES) {
        const fields = { ...BASES[table] };
        if (value === undefined) delete fields[name];
        else fields[name] = value;
        all.push({ table, fields });
      }
    }
  }
  all.push({ table: 'session', fields: { ...SESSION, endedAt: '2026-06-01T11:59:59.999Z' } }, { table: 'session', fields: {} });
  return all;
}

/** What the TypeScript tracker says of one case: its details (empty when it passes). */
function typeScriptDetails({ table, fields }: { table: Table; fields: Fields }): unknown[] {
  if (table === 'session') return checkPlaytimeItem(fields);
  try {
    if (table === 'start') checkStartOptions(fields);
    else resolveTrackerOptions({ platform: {} as never, userId: 'p1', relay: { url: 'https://g1.example/campaign' }, ...fields });
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.details ?? [];
  }
}

const work = mkdtempSync(join(tmpdir(), 'unity-field-rules-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let all: { table: Table; fields: Fields }[];
let csharp: unknown[][];
beforeAll(() => {
  all = cases();
  const file = join(work, 'cases.json');
  writeFileSync(file, JSON.stringify(all));
  const exe = join(work, 'FieldRulesProbe.exe');
  compileProbe('FieldRulesProbe', exe);
  csharp = JSON.parse(runProbe(exe, [file])) as unknown[][];
});

describe('managed field rules (generated from core/schema)', () => {
  it('refuse what the TypeScript tracker refuses, with the same paths and messages, field by field', () => {
    expect(csharp).toHaveLength(all.length);
    const differences = all.flatMap((item, index) => {
      const expected = typeScriptDetails(item);
      return JSON.stringify(csharp[index]) === JSON.stringify(expected) ? [] : [{ ...item, typeScript: expected, csharp: csharp[index] }];
    });
    expect(differences).toEqual([]);
    // The cases do reach every rule (the comparison is not of empty lists only).
    expect(csharp.filter((details) => details.length > 0).length).toBeGreaterThan(all.length / 2);
  });

  it('are generated: a field of the session rules, and a predicate with no C# counterpart is refused', () => {
    const text = renderUnityTypes();
    expect(text).toContain('new FieldRule("creatorKey", "string", RuleTest.CreatorKey, "must be exactly 5 uppercase letters or digits", true),');
    expect(text).toContain('new FieldRule("durationSeconds", "number", RuleTest.PositiveInt, "must be a whole number of at least 1", false),');
    expect(text).toContain('new FieldRule("flushAt", "number", RuleTest.PositiveInt, "must be a whole number of at least 1", true),');
    expect(text).toContain('new FieldRule("checkpointMs", "number", RuleTest.TimerMs, "must be an integer from 1 to 2147483647", true),');
    expect(() => renderFieldRule('userId', { type: 'string', test: (value: string) => value.length < 64, message: 'must be short' } as never)).toThrow(/no C# counterpart/);
  });
});
