/**
 * The package's JSON reader (Runtime/JsonReader.cs behind Json.Parse) against JavaScript's JSON.parse: the same
 * texts are valid (RFC 8259 exactly) and read to the same values, over a table of edge cases and fast-check's
 * generated texts; nesting beyond Json.MaxDepth is a clean FormatException, never a stack overflow. Json.Serialize
 * writes the metadata values a game passes (floats, decimals, longs) as they were meant, in any device culture.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProbe, runProbe } from './mono-probe.js';

const MAX_DEPTH = 64; // Json.MaxDepth
const work = mkdtempSync(join(tmpdir(), 'unity-json-'));
const exe = join(work, 'json-probe.exe');
beforeAll(() => compileProbe('JsonProbe', exe));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Outcome = { ok: true; text: string } | { ok: false; error: string };

const utf16 = (text: string) => Buffer.from(new Uint16Array([...Array(text.length).keys()].map((i) => text.charCodeAt(i))).buffer).toString('base64');
const fromUtf16 = (base64: string) => {
  const bytes = Buffer.from(base64, 'base64');
  return String.fromCharCode(...new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2));
};

/** What C# makes of each text, in one mono run. */
function readInCSharp(texts: string[]): Outcome[] {
  const input = join(work, 'cases.txt');
  writeFileSync(input, texts.map(utf16).join('\n') + '\n');
  const lines = runProbe(exe, [input]).split('\n').filter(Boolean);
  expect(lines).toHaveLength(texts.length);
  return lines.map((line) => {
    const [kind, ...rest] = line.split(' ');
    if (kind === 'ok') return { ok: true, text: fromUtf16(rest[0]!) };
    if (kind === 'error') return { ok: false, error: rest.join(' ') };
    throw new Error(`C# threw something other than FormatException: ${line}`);
  });
}

function jsValidity(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The same JSON value, numbers within one unit in the last place: C# reads numbers with the runtime's double.Parse,
 * and mono's is not correctly rounded (it reads -6.613786240881817e-96 one unit low). Assumed harmless: the SDK's
 * numbers are counts, durations and days. -0 equals 0, as JSON.stringify writes both "0".
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || Math.abs(a - b) <= oneUlp(a);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
  }
  return a === b;
}

function oneUlp(x: number): number {
  const bits = new DataView(new ArrayBuffer(8));
  bits.setFloat64(0, Math.abs(x));
  bits.setBigUint64(0, bits.getBigUint64(0) + 1n);
  return bits.getFloat64(0) - Math.abs(x);
}

/** C# accepts exactly what JSON.parse accepts, and reads the same value. */
function expectAgreement(texts: string[]): void {
  const outcomes = readInCSharp(texts);
  const disagreements = texts.flatMap((text, i): Array<{ text: string; js: unknown; csharp: unknown }> => {
    const outcome = outcomes[i]!;
    const valid = jsValidity(text);
    if (valid !== outcome.ok) return [{ text, js: valid ? 'valid' : 'invalid', csharp: outcome }];
    if (outcome.ok && !sameValue(JSON.parse(outcome.text), JSON.parse(text, (_key, value: unknown) => (value === Infinity || value === -Infinity ? String(value) : value)))) return [{ text, js: JSON.parse(text) as unknown, csharp: outcome.text }];
    return [];
  });
  expect(disagreements).toEqual([]);
}

/** JSON texts of any value, with strings of any UTF-16 code units (lone surrogates included). */
function jsonText(): fc.Arbitrary<string> {
  const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const string = fc.string({ unit: 'binary', maxLength: 8 });
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof({ depthSize: 'small', maxDepth: 6 }, fc.constantFrom(null, true, false), number, string, fc.array(tie('value'), { maxLength: 5 }), fc.dictionary(string, tie('value'), { maxKeys: 5 })),
  }));
  return fc.tuple(value, fc.constantFrom(undefined, 1, '\t')).map(([v, indent]) => JSON.stringify(v, null, indent));
}

const nested = (depth: number, open = '[', close = ']', inner = '') => open.repeat(depth) + inner + close.repeat(depth);

const VALID = [
  '0', '-0', '1', '-1', '1.5', '-0.25', '1e3', '1E+3', '1e-3', '-0.0e0', '2.5E-3', '1e400', '-1e400', '1e-400',
  '123456789012345678901234567890', '9007199254740993', '0.1', '5e-324',
  '""', '"a"', '"\\u00e9"', '"\\u00E9"', '"\\ud83d\\ude00"', '"\\ud800"', '"\\udc00x"', '"\\/"', '"\\"\\\\"',
  '"\\b\\f\\n\\r\\t"', '"😀"', '"é\u007f\u0080\u2028"', '"\ud800"',
  'true', 'false', 'null', '[]', '{}', '[1,2]', '{"a":{"b":[null,true,"x"]}}', ' \t\n\r[ 1 , 2 ]\r\n ',
  '{"a":1,"a":2}', '{"":0}', '{"b":1,"1":2}', '"\\u0041BC"',
  nested(MAX_DEPTH), nested(MAX_DEPTH, '{"a":', '}', '1'),
];

const INVALID = [
  '', ' ', '"\\x41"', '"\\a"', '"\\U0041"', '"\\\'"', '"a\u0001"', '"a\tb"', '"a\nb"', '"\u001f"', '+1', '.5', '01', '-01', '00', '1.',
  '1.e3', '1e', '1e+', '-', '--1', '-.5', '0x10', 'NaN', 'Infinity', '-Infinity', '[1,]', '{"a":1,}', '[,1]', '[1 2]',
  '{"a" 1}', '{a:1}', "'a'", '{"a":1 "b":2}', '1 2', '[]x', 'true false', 'nul', 'tru', 'True', 'NULL', '"\\u12"',
  '"\\u12G4"', '"\\u 123"', '"\\u-123"', '"\\u+123"', '"abc', '"\\', '[', '{', ']', '}', '\u00a01', '\ufeff1', '1\u2028',
  '[1]]', '{"a":1}}', '[1,,2]', '{,}', '{"a"}', '{"a":}', '1e1.5', '1.5.5', '- 1',
];

describe('Json.Parse (strict RFC 8259, as JSON.parse)', () => {
  it('agrees with JSON.parse on a table of valid and invalid texts', () => {
    for (const text of VALID) expect(jsValidity(text), text).toBe(true);
    for (const text of INVALID) expect(jsValidity(text), text).toBe(false);
    expectAgreement([...VALID, ...INVALID]);
  });

  it(`reads ${MAX_DEPTH} nested arrays or objects and refuses ${MAX_DEPTH + 1} and 100,000 with a FormatException, not a stack overflow`, () => {
    const deep = [nested(MAX_DEPTH + 1), nested(MAX_DEPTH + 1, '{"a":', '}', '1'), nested(100_000), nested(100_000, '{"a":', '}', '1'), '['.repeat(100_000)];
    const outcomes = readInCSharp([nested(MAX_DEPTH), ...deep]);
    expect(outcomes[0]).toEqual({ ok: true, text: nested(MAX_DEPTH) });
    for (const outcome of outcomes.slice(1)) expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining(`nested deeper than ${MAX_DEPTH}`) });
  });

  it('agrees with JSON.parse on generated JSON, token soup and one-character mutations (fast-check, fixed seed)', () => {
    const json = jsonText();
    const tokens = ['[', ']', '{', '}', ',', ':', '"', '\\', 'u', '0', '1', '9', '-', '+', '.', 'e', 'E', ' ', '\t', '\n', '\r', 'x', 'a', 'true', 'null', '"a"', '\\u00', 'd8', '\u0001', '\u00a0', '\ud800', '\\"', '"k":'];
    const soup = fc.array(fc.constantFrom(...tokens), { maxLength: 12 }).map((parts) => parts.join(''));
    const mutated = fc
      .tuple(json, fc.nat(), fc.constantFrom('', ...tokens), fc.boolean())
      .map(([text, at, insert, remove]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(remove ? i + 1 : i);
      });
    const texts = [...fc.sample(json, { numRuns: 300, seed: 29 }), ...fc.sample(soup, { numRuns: 600, seed: 29 }), ...fc.sample(mutated, { numRuns: 600, seed: 29 })];
    const validCount = texts.filter(jsValidity).length;
    expect(validCount).toBeGreaterThan(300); // the generators cover both sides
    expect(texts.length - validCount).toBeGreaterThan(300);
    expectAgreement(texts);
  });
});

describe('Json.Serialize of what a game passes as metadata', () => {
  const writer = join(work, 'json-write-probe.exe');
  beforeAll(() => compileProbe('JsonWriteProbe', writer), 120_000);

  it.each(['en-US', 'de-DE', 'tr-TR'])('writes a float as the float it is, whatever the device culture (%s)', (culture) => {
    const written = runProbe(writer, [culture]).trim();
    // 0.1f is 0.1 (its double is 0.10000000149011612): what the game wrote, and what it reads back as a float.
    expect(JSON.parse(written)).toEqual({ speed: 0.1, ratio: 1.1, half: -0.5, tiny: 1e-7, big: 3.40282347e38, whole: 60, double: 0.1, decimal: 2.5, level: 3, coins: 12345678901 });
  });
});
