// `npm run release` (scripts/release.mjs) on a copy of the release's inputs: Changesets versions the package
// and writes the changelog, the Unity manifest gets the same version (its hand formatting kept) and its links and
// README the same tag, the Unity package gets the new changelog, and the API report becomes the baseline the next
// changesets are checked against.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TAGGED_DOCS, UNITY_MANIFEST, UNITY_README } from '../../scripts/release.mjs';
import { BASELINE, REPORTS, semverProblems } from '../../scripts/release-semver.mjs';

const ROOT = join(import.meta.dirname, '../..');
const RELEASE_INPUTS = ['package.json', 'CHANGELOG.md', 'LICENSE', '.changeset/config.json', UNITY_MANIFEST, UNITY_README, 'adapters/unity/CHANGELOG.md', REPORTS, ...TAGGED_DOCS];
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder holding what the release reads and writes, as the repository has it now. */
function copyOfRelease(): string {
  const folder = mkdtempSync(join(tmpdir(), 'gc-release-'));
  folders.push(folder);
  for (const path of RELEASE_INPUTS) cpSync(join(ROOT, path), join(folder, path), { recursive: true });
  return folder;
}

const read = (folder: string, path: string) => readFileSync(join(folder, path), 'utf8');

describe('npm run release', () => {
  it('versions both packages from the changesets, writes the changelog and moves the API baseline', () => {
    const folder = copyOfRelease();
    const version = (JSON.parse(read(folder, 'package.json')) as { version: string }).version;
    const [major, minor] = version.split('.').map(Number) as [number, number];
    // A new export since the last release, and the minor changeset it needs.
    const report = join(folder, REPORTS, 'game-campaign-sdk-node.api.md');
    writeFileSync(report, read(folder, `${REPORTS}/game-campaign-sdk-node.api.md`).replace(/\n```\s*$/, '\n// @public\nexport function added(): void;\n\n```\n'));
    expect(semverProblems(folder)).toEqual([expect.stringContaining('needs a minor changeset')]);
    mkdirSync(join(folder, '.changeset'), { recursive: true });
    writeFileSync(join(folder, '.changeset/new-export.md'), '---\n"game-campaign-sdk": minor\n---\n\n`added()` from `game-campaign-sdk/node`.\n');
    expect(semverProblems(folder)).toEqual([]);
    const unityBefore = read(folder, UNITY_MANIFEST);
    const readmeBefore = read(folder, UNITY_README);
    expect(unityBefore).toContain(`/blob/v${version}/`);
    expect(readmeBefore).toContain(`#v${version}`);
    const docsBefore = read(folder, 'docs/getting-started.md');
    expect(docsBefore).toContain(`/blob/v${version}/samples/`);

    execFileSync(process.execPath, [join(ROOT, 'scripts/release.mjs')], { cwd: folder, stdio: 'pipe' });

    const next = `${major}.${minor + 1}.0`;
    expect((JSON.parse(read(folder, 'package.json')) as { version: string }).version).toBe(next);
    expect(read(folder, UNITY_MANIFEST)).toBe(unityBefore.replace(`"version": "${version}"`, `"version": "${next}"`).replaceAll(`/blob/v${version}/`, `/blob/v${next}/`));
    expect(read(folder, UNITY_README)).toBe(readmeBefore.replaceAll(`/blob/v${version}/`, `/blob/v${next}/`).replaceAll(`#v${version}`, `#v${next}`));
    // The package docs' links to what only the repository holds (samples/, docs/reference/) name the new tag.
    expect(read(folder, 'docs/getting-started.md')).toBe(docsBefore.replaceAll(`/blob/v${version}/`, `/blob/v${next}/`));
    // The Unity package carries the new changelog (a git-URL install gets only adapters/unity).
    expect(read(folder, 'adapters/unity/CHANGELOG.md')).toBe(read(folder, 'CHANGELOG.md'));
    expect(read(folder, 'adapters/unity/CHANGELOG.md')).toContain(`## ${next}`);
    expect(read(folder, 'CHANGELOG.md')).toMatch(new RegExp(`^# game-campaign-sdk\\n\\n## ${next.replace(/\./g, '\\.')}\\n\\n### Minor Changes\\n\\n- [^\\n]*\`added\\(\\)\` from \`game-campaign-sdk/node\`\\.`));
    expect(read(folder, 'CHANGELOG.md')).toContain(`## ${version}`);
    expect(read(folder, `${BASELINE}/game-campaign-sdk-node.api.md`)).toBe(read(folder, `${REPORTS}/game-campaign-sdk-node.api.md`));
    // The changeset is consumed and the new surface is the baseline: nothing pending, nothing asked for.
    expect(semverProblems(folder)).toEqual([]);
  });
});
