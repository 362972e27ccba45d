// The relay's per-player keys (core/relay/user-key.ts): a well-formed id is its own key; an id a Redis client would
// change on its way as UTF-8 (a lone surrogate) is its digest, and so is one that could be taken for a digest.
import { describe, expect, it } from 'vitest';
import { userKey } from '../../../core/relay/user-key.js';
import { dayShares } from '../../../core/relay/daily-cap.js';

describe('userKey', () => {
  it.each(['alice', '😀 player', 'e\u0301le\u0300ve', 'مرحبا', 'a\u0000b', '\ufffd', 'sha256'])('keeps the well-formed id %j as it is', (id) => {
    expect(userKey(id)).toBe(id);
  });

  it('gives ids that differ only in a lone surrogate, or are U+FFFD, keys that UTF-8 keeps apart', () => {
    const ids = ['\ud800', '\udc00', '\ufffd', 'x\ud800y', 'x\udc00y', '\udc00\ud800'];
    const keys = ids.map(userKey);
    expect(new Set(keys.map((key) => Buffer.from(key, 'utf8').toString('hex'))).size).toBe(ids.length);
    expect(keys.filter((key) => key.startsWith('sha256:'))).toHaveLength(5);
  });

  it('digests an id that begins as a digest does, so no id is another one\'s key', () => {
    const digest = userKey('\ud800');
    expect(userKey(digest)).not.toBe(digest);
    expect(userKey(digest)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("names the daily cap's day counts by it", () => {
    const session = { sessionId: 's', userId: '\ud800', durationSeconds: 1, startedAt: '2026-03-10T00:00:00.000Z', endedAt: '2026-03-10T00:00:01.000Z' };
    expect(dayShares('\ud800', session)).toEqual([{ key: `${userKey('\ud800')}:2026-03-10`, day: 20522, seconds: 1 }]);
  });
});
