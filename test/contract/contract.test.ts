/**
 * The tracker contract on the TypeScript tracker: one test per scenario file in ./scenarios (FORMAT.md), the
 * same files the C# runner plays against the Unity package's managed tracker.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COVER_TAGS, loadScenario } from './scenario.js';
import { runScenario } from './ts-runner.js';

const directory = join(import.meta.dirname, 'scenarios');
const files = readdirSync(directory).filter((file) => file.endsWith('.json')).sort();

describe('tracker contract (TypeScript tracker)', () => {
  for (const file of files) {
    it(file, async () => {
      await runScenario(loadScenario(join(directory, file)));
    });
  }

  it('every tag of FORMAT.md is covered by at least one scenario', () => {
    const covered = new Set(files.flatMap((file) => loadScenario(join(directory, file)).covers));
    expect(COVER_TAGS.filter((tag) => !covered.has(tag))).toEqual([]);
  });
});
