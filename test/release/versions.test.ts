// One version: the npm package and the Unity package (adapters/unity, what Unity's Package Manager reads) are
// released together, so they carry the same version. `npm run release` (scripts/release.mjs) keeps them so.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNITY_MANIFEST } from '../../scripts/release.mjs';

const ROOT = join(import.meta.dirname, '../..');
const versionOf = (file: string) => (JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { version: string }).version;

describe('versions', () => {
  it('package.json and the Unity package carry the same version', () => {
    expect(versionOf(UNITY_MANIFEST), `${UNITY_MANIFEST} and package.json`).toBe(versionOf('package.json'));
  });
});
