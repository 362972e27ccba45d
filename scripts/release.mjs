#!/usr/bin/env node
// `npm run release`: versions the package from the pending changesets and writes CHANGELOG.md (`changeset
// version`), gives the Unity package (adapters/unity/package.json) the same version and its documentation links
// the same tag, as the package docs' links to the repository (TAGGED_DOCS), copies the changelog (and license)
// into the Unity package, and makes today's API report the baseline the next changesets are checked against
// (docs/api/released/, scripts/release-semver.mjs).
// Publishing stays a separate, deliberate `npm publish` (prepack builds dist/ first). Works on the current
// folder, as npm runs it from the package root.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BASELINE, REPORTS } from './release-semver.mjs';
import { writeUnityCopies } from './unity-package-docs.mjs';

export const UNITY_MANIFEST = 'adapters/unity/package.json';

/** The Unity package's README, whose install line and links name the release tag. */
export const UNITY_README = 'adapters/unity/README.md';

/** Points every release-tag reference (`/blob/vX.Y.Z/`, `#vX.Y.Z`) of `text` at `version`'s tag. */
export function retag(text, version) {
  return text.replace(/\/blob\/v\d+\.\d+\.\d+[^/"\s]*\//g, `/blob/v${version}/`).replace(/#v\d+\.\d+\.\d+[^\s"`)]*/g, `#v${version}`);
}

/**
 * Sets the Unity manifest's "version" to the npm package's, and the release tag in its documentation links and in
 * the package README, changing only those (the manifest is hand-formatted).
 */
export function syncUnityVersion(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const file = join(root, UNITY_MANIFEST);
  const manifest = readFileSync(file, 'utf8');
  const synced = retag(manifest.replace(/("version"\s*:\s*)"[^"]*"/, `$1"${version}"`), version);
  if (JSON.parse(synced).version !== version) throw new Error(`${UNITY_MANIFEST}: no "version" to set`);
  writeFileSync(file, synced);
  const readme = join(root, UNITY_README);
  writeFileSync(readme, retag(readFileSync(readme, 'utf8'), version));
  return version;
}

/** The repository, as package.json's "repository" names it; its files are linked at `/blob/v<version>/`. */
export const REPOSITORY = 'https://github.com/game-campaign/game-campaign-sdk';

/**
 * The package's Markdown that links to the repository at the release tag (samples/, docs/reference/,
 * CONTRIBUTING.md: files the tarball does not carry, so a relative link to them is dead in node_modules and on npm).
 */
export const TAGGED_DOCS = ['README.md', 'docs/getting-started.md', 'docs/guides'];

/** Points the release-tag links of `TAGGED_DOCS` (every Markdown file of a folder) at `version`'s tag. */
export function retagDocs(root, version) {
  const files = TAGGED_DOCS.flatMap((path) => (path.endsWith('.md') ? [path] : readdirSync(join(root, path)).filter((file) => file.endsWith('.md')).map((file) => `${path}/${file}`)));
  for (const file of files) writeFileSync(join(root, file), retag(readFileSync(join(root, file), 'utf8'), version));
  return files;
}

/** Copies the API report (docs/api/*.api.md) to the released baseline, replacing what was there. */
export function moveApiBaseline(root) {
  const baseline = join(root, BASELINE);
  rmSync(baseline, { recursive: true, force: true });
  mkdirSync(baseline, { recursive: true });
  const reports = readdirSync(join(root, REPORTS)).filter((file) => file.endsWith('.api.md'));
  for (const file of reports) copyFileSync(join(root, REPORTS, file), join(baseline, file));
  return reports.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd();
  const changeset = createRequire(import.meta.url).resolve('@changesets/cli/bin.js');
  execFileSync(process.execPath, [changeset, 'version'], { cwd: root, stdio: 'inherit' });
  const version = syncUnityVersion(root);
  retagDocs(root, version);
  writeUnityCopies(root);
  const reports = moveApiBaseline(root);
  console.log(`release: ${version} (npm and ${UNITY_MANIFEST}); ${reports} API reports are the baseline in ${BASELINE}/. Review, commit, then npm publish.`);
}
