// The daily cap's marks (core/relay/daily-cap.ts, `DailyPlaytimeCap.keepOnce`) have one shape in every release: a
// relay reads only `<keyPrefix>-kept:<sessionId>:<day number>`. An earlier shape (`<length>:<sessionId>:<userId>:<ISO
// date>`) lived on main only, after 0.1.0 and before the release that first ships the marks, so no relay in use holds
// one and no transition window reads it (docs/decisions.md, "The daily cap's marks, smaller"). If the shape ever
// changes after a release, the released CHANGELOG names the old one and this fails: read both shapes for the
// marks' lifetime then.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** The one shape the cap writes and reads, as the docs name it. */
const MARK_SHAPE = '<keyPrefix>-kept:<sessionId>:<day number>';

describe("the daily cap's marks across releases", () => {
  it('no released version wrote marks of another shape', () => {
    const named = read('CHANGELOG.md').match(/<keyPrefix>-kept:[^`\s]*/g) ?? [];
    expect(named.filter((shape) => shape !== MARK_SHAPE)).toEqual([]);
  });

  it("the code writes the shape the docs name (the cap's mark key)", () => {
    const source = read('core/relay/daily-cap.ts');
    expect(source).toContain('this.#kept = store(1, `${keyPrefix}-kept`,');
    expect(source).toContain('this.#kept.consume(`${markOf(sessionId)}:${share.day}`, 1, this.#on(share))');
  });

  it('no pending changeset tells users of marks an earlier version wrote (none did)', () => {
    const pending = readdirSync(join(ROOT, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md');
    const told = pending.filter((file) => /mark/i.test(read(`.changeset/${file}`)) && /earlier version|before the upgrade|was `<keyPrefix>-kept/i.test(read(`.changeset/${file}`)));
    expect(told).toEqual([]);
  });
});
