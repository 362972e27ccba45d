// Semver discipline: the public surface is the API report (docs/api/*.api.md, written by api-extractor). The
// report as of the last release is kept in docs/api/released/ (`npm run release` moves it there); every change
// between the two needs a pending changeset (.changeset/*.md) of at least the bump it implies:
// - a line only added (a new export, member or overload)      -> minor;
// - a line removed or changed (a removal or changed signature) -> major, or minor while the version is 0.x
//   (changesets would turn a major on 0.x into 1.0.0; on 0.x npm's caret ranges already treat a minor as breaking).
// The report is compared as text, release-tag comments and blank lines aside: a declaration printed differently
// counts as changed. The npm test (test/release/semver.test.ts) and CONTRIBUTING.md apply this.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PACKAGE = 'game-campaign-sdk';
export const REPORTS = 'docs/api';
export const BASELINE = 'docs/api/released';
const BUMPS = ['none', 'patch', 'minor', 'major'];

/**
 * The declaration lines of an API report: inside its ```ts block, without comments (release tags, warnings) and
 * blank lines. Reports written before api-extractor's `newlineKind: 'lf'` have CRLF line ends: both are read.
 */
export function declarationLines(report) {
  const text = report.replace(/\r\n/g, '\n');
  const body = /```ts\n([\s\S]*)```/.exec(text)?.[1] ?? text;
  return body
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('//'));
}

/** Lines only in `before` (removed or changed) and only in `after` (added), by a longest common subsequence. */
export function lineDiff(before, after) {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) (endB--, endA--);
  const b = before.slice(start, endB);
  const a = after.slice(start, endA);
  // lcs[i][j]: the common subsequence of b[i..] and a[j..], one flat row-major table.
  const width = a.length + 1;
  const lcs = new Uint32Array((b.length + 1) * width);
  for (let i = b.length - 1; i >= 0; i--) {
    for (let j = a.length - 1; j >= 0; j--) {
      lcs[i * width + j] = b[i] === a[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const removed = [];
  const added = [];
  let i = 0;
  let j = 0;
  while (i < b.length && j < a.length) {
    if (b[i] === a[j]) (i++, j++);
    else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) removed.push(b[i++]);
    else added.push(a[j++]);
  }
  removed.push(...b.slice(i));
  added.push(...a.slice(j));
  return { removed, added };
}

const reportFiles = (dir) => (existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('.api.md')).sort() : []);

/** Per report file, the lines removed and added since the baseline (a report new since then is all added). */
export function apiChanges(root) {
  const files = [...new Set([...reportFiles(join(root, BASELINE)), ...reportFiles(join(root, REPORTS))])].sort();
  const read = (dir, file) => (existsSync(join(root, dir, file)) ? declarationLines(readFileSync(join(root, dir, file), 'utf8')) : []);
  return files
    .map((file) => ({ file, ...lineDiff(read(BASELINE, file), read(REPORTS, file)) }))
    .filter((change) => change.removed.length > 0 || change.added.length > 0);
}

/** The bump a set of report changes needs at `version`: 'none', 'minor' or 'major'. */
export function requiredBump(changes, version) {
  if (changes.some((change) => change.removed.length > 0)) return version.startsWith('0.') ? 'minor' : 'major';
  return changes.length > 0 ? 'minor' : 'none';
}

/**
 * A changeset's releases, read as @changesets/parse reads them: YAML front matter of `"package": bump` lines
 * between two `---` lines, then the summary. Throws on anything else, so a malformed changeset fails the test
 * before `changeset version` meets it.
 */
export function parseChangeset(text, id = 'changeset') {
  // The delimiters as @changesets/parse 0.4 matches them (its mdRegex).
  const match = /\s*---([^]*?)\n\s*---(\s*(?:\n|$)[^]*)/.exec(text);
  if (!match) throw new Error(`${id}: no front matter between --- lines`);
  const releases = match[1]
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const release = /^\s*(["']?)([^"':]+)\1\s*:\s*(major|minor|patch|none)\s*$/.exec(line);
      if (!release) throw new Error(`${id}: cannot read "${line.trim()}" (expected "package": major|minor|patch)`);
      return { name: release[2], type: release[3] };
    });
  return { summary: match[2].trim(), releases };
}

/** The pending changesets in .changeset/ (every .md but its README), as `changeset version` will read them. */
export function pendingChangesets(root) {
  const dir = join(root, '.changeset');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && !file.startsWith('.') && !/^README\.md$/i.test(file))
    .sort()
    .map((file) => ({ id: file.replace(/\.md$/, ''), ...parseChangeset(readFileSync(join(dir, file), 'utf8'), file) }));
}

/** The largest bump the pending changesets give this package. */
export function pendingBump(changesets) {
  let bump = 'none';
  for (const { releases } of changesets) {
    for (const release of releases) if (release.name === PACKAGE && BUMPS.indexOf(release.type) > BUMPS.indexOf(bump)) bump = release.type;
  }
  return bump;
}

/** Problems with the changesets against the API report's changes; empty when the discipline holds. */
export function semverProblems(root) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const changesets = pendingChangesets(root);
  const problems = [];
  for (const { id, releases } of changesets) {
    for (const release of releases) if (release.name !== PACKAGE) problems.push(`${id}: names "${release.name}", not ${PACKAGE}`);
  }
  const changes = apiChanges(root);
  const needed = requiredBump(changes, version);
  const pending = pendingBump(changesets);
  if (BUMPS.indexOf(pending) < BUMPS.indexOf(needed)) {
    const lines = changes.flatMap(({ file, removed, added }) => [...removed.map((line) => `${file} - ${line.trim()}`), ...added.map((line) => `${file} + ${line.trim()}`)]);
    problems.push(
      `the public API changed since the last release (${BASELINE}/): it needs a ${needed} changeset, the pending ones give ${pending}. ` +
        `Run \`npx changeset\` and pick ${needed}.\n${lines.slice(0, 20).join('\n')}${lines.length > 20 ? `\n... ${lines.length - 20} more` : ''}`,
    );
  }
  return problems;
}
