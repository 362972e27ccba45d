// Semver discipline (scripts/release-semver.mjs): the API report's changes since the last release (docs/api/ against
// docs/api/released/) need pending changesets of the right kind. First the repository itself, then the rules on
// copies of its reports.
import parseWithChangesets from '@changesets/parse';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BASELINE, lineDiff, parseChangeset, PACKAGE, REPORTS, semverProblems } from '../../scripts/release-semver.mjs';

const ROOT = join(import.meta.dirname, '../..');
const NODE_REPORT = 'game-campaign-sdk-node.api.md';
const folders: string[] = [];

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder with the repository's baseline as both the last release and today's report, at `version`, no changesets. */
function releasedAt(version: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'gc-semver-'));
  folders.push(folder);
  cpSync(join(ROOT, BASELINE), join(folder, REPORTS), { recursive: true });
  cpSync(join(ROOT, BASELINE), join(folder, BASELINE), { recursive: true });
  mkdirSync(join(folder, '.changeset'));
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: PACKAGE, version }));
  return folder;
}

/** Edits today's report of the node entry (with LF line ends; older reports have CRLF, the check reads both). */
function editReport(folder: string, edit: (report: string) => string): void {
  const file = join(folder, REPORTS, NODE_REPORT);
  const report = readFileSync(file, 'utf8').replace(/\r\n/g, '\n');
  const edited = edit(report);
  expect(edited, 'the edit applies').not.toBe(report);
  writeFileSync(file, edited);
}

/** A new function before the report's closing fence. */
const addExport = (report: string) => report.replace(/\n```\s*$/, '\n// @public\nexport function added(): void;\n\n```\n');
const changeSignature = (report: string) => report.replace('export function toNodeHandler(handler: FetchHandler): NodeHandler;', 'export function toNodeHandler(handler: FetchHandler, basePath: string): NodeHandler;');

function addChangeset(folder: string, id: string, bump: string, name = PACKAGE): void {
  writeFileSync(join(folder, '.changeset', `${id}.md`), `---\n"${name}": ${bump}\n---\n\nWhat changed, for the changelog.\n`);
}

describe('the repository', () => {
  it('has a changeset of the right kind for every change of the API report since the last release', () => {
    expect(semverProblems(ROOT)).toEqual([]);
  });
});

describe('the rule', () => {
  it('asks nothing while the report matches the last release, and ignores release-tag comments', () => {
    const folder = releasedAt('0.4.1');
    expect(semverProblems(folder)).toEqual([]);
    editReport(folder, (report) => report.replace('// @public\nexport function webhookMiddleware', '// @public (undocumented)\nexport function webhookMiddleware'));
    expect(semverProblems(folder)).toEqual([]);
  });

  it('an addition needs a minor changeset: none or a patch is refused, naming the added line', () => {
    const folder = releasedAt('0.4.1');
    editReport(folder, addExport);
    expect(semverProblems(folder)).toEqual([expect.stringContaining(`needs a minor changeset, the pending ones give none`)]);
    expect(semverProblems(folder)[0]).toContain(`${NODE_REPORT} + export function added(): void;`);
    addChangeset(folder, 'a-fix', 'patch');
    expect(semverProblems(folder)).toEqual([expect.stringContaining('needs a minor changeset, the pending ones give patch')]);
    addChangeset(folder, 'the-addition', 'minor');
    expect(semverProblems(folder)).toEqual([]);
  });

  it('a changed signature needs a minor changeset while 0.x', () => {
    const folder = releasedAt('0.4.1');
    editReport(folder, changeSignature);
    addChangeset(folder, 'a-fix', 'patch');
    expect(semverProblems(folder)).toEqual([expect.stringContaining(`${NODE_REPORT} - export function toNodeHandler(handler: FetchHandler): NodeHandler;`)]);
    addChangeset(folder, 'breaking', 'minor');
    expect(semverProblems(folder)).toEqual([]);
  });

  it('from 1.0 a removal or changed signature needs a major changeset, an addition a minor one', () => {
    const folder = releasedAt('1.2.3');
    editReport(folder, changeSignature);
    addChangeset(folder, 'change', 'minor');
    expect(semverProblems(folder)).toEqual([expect.stringContaining('needs a major changeset, the pending ones give minor')]);
    addChangeset(folder, 'breaking', 'major');
    expect(semverProblems(folder)).toEqual([]);

    const added = releasedAt('1.2.3');
    editReport(added, addExport);
    addChangeset(added, 'addition', 'minor');
    expect(semverProblems(added)).toEqual([]);
  });

  it('a new entry is an addition and a removed entry a removal', () => {
    const folder = releasedAt('1.0.0');
    renameSync(join(folder, REPORTS, NODE_REPORT), join(folder, REPORTS, 'game-campaign-sdk-next.api.md'));
    expect(semverProblems(folder)).toEqual([expect.stringContaining('needs a major changeset')]);
    cpSync(join(folder, BASELINE, NODE_REPORT), join(folder, REPORTS, NODE_REPORT));
    expect(semverProblems(folder)).toEqual([expect.stringContaining('needs a minor changeset')]);
  });

  it('refuses a changeset for another package, as `changeset version` would', () => {
    const folder = releasedAt('0.4.1');
    addChangeset(folder, 'elsewhere', 'patch', 'game-campaign-unity');
    expect(semverProblems(folder)).toEqual(['elsewhere: names "game-campaign-unity", not game-campaign-sdk']);
  });
});

describe('the line diff', () => {
  it('keeps a member line in its own declaration: one moved between interfaces is removed there and added here', () => {
    const before = ['export interface A {', '    id: string;', '}', 'export interface B {', '}'];
    const after = ['export interface A {', '}', 'export interface B {', '    id: string;', '}'];
    expect(lineDiff(before, after)).toEqual({ removed: ['    id: string;'], added: ['    id: string;'] });
  });
});

describe('reading a changeset', () => {
  // @changesets/parse (installed with @changesets/cli) is what `changeset version` reads them with.
  it.each([
    ['one package', '---\n"game-campaign-sdk": minor\n---\n\nAdds `added()`.\n'],
    ['single quotes, no summary', "---\n'game-campaign-sdk': patch\n---\n"],
    ['an empty changeset', '---\n---\n\nNothing to release.\n'],
    ['two packages', '---\n"game-campaign-sdk": major\n"other": none\n---\nBreaking: removes `old()`.\n'],
  ])('%s: as @changesets/parse reads it', (_, text) => {
    expect(parseChangeset(text)).toEqual(parseWithChangesets(text));
  });

  it.each([
    ['an unknown bump', '---\n"game-campaign-sdk": huge\n---\n\nx\n'],
    ['no front matter', 'Adds `added()`.\n'],
  ])('%s: refused, as @changesets/parse refuses it', (_, text) => {
    expect(() => parseWithChangesets(text)).toThrow();
    expect(() => parseChangeset(text)).toThrow();
  });
});
