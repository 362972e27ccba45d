// Keepalive bodies are sized by hand (Cocos mini-games have no TextEncoder): the count must be TextEncoder's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBySize, utf8Length } from '../../../core/tracker/body-size.js';

const encoder = new TextEncoder();

describe('utf8Length', () => {
  it('equals TextEncoder for any string, lone surrogates included', () => {
    const units = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }));
    fc.assert(fc.property(units, (text) => void expect(utf8Length(text)).toBe(encoder.encode(text).length)), { numRuns: 2000 });
  });

  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 2],
    ['€', 3],
    ['😀', 4],
    ['\ud83d', 3],
    ['\ude00\ud83d', 6],
  ])('%j is %i bytes', (text, bytes) => {
    expect(utf8Length(text)).toBe(bytes);
  });
});

describe('chunkBySize', () => {
  const item = (n: number, padding: string) => ({ session: { sessionId: `s${n}`, userId: padding } as never });

  it('keeps every body under the limit, in order, and sets apart an item too large alone', () => {
    const items = [item(1, 'a'.repeat(30)), item(2, '€'.repeat(30)), item(3, 'x'.repeat(500)), item(4, 'b')];
    const { chunks, oversized } = chunkBySize(items, 10, 200);
    expect(oversized).toEqual([items[2]]);
    expect(chunks).toEqual([[items[0], items[1]], [items[3]]]);
    for (const chunk of chunks) {
      const body = 10 + utf8Length(chunk.map((entry) => JSON.stringify(entry.session)).join(','));
      expect(body).toBeLessThan(200);
    }
  });
});
