/**
 * The Unity package's own documents (a git-URL install of `?path=adapters/unity` gets nothing else): README,
 * CHANGELOG and LICENSE in step with the repository's, and third-party notices for every library the WebGL
 * .jspre bundles, with the license text each ships (scripts/unity-package-docs.mjs writes them at build and release).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledPackages, packageLicense, renderNotices, UNITY_COPIES, UNITY_NOTICES } from '../../../scripts/unity-package-docs.mjs';

const ROOT = join(import.meta.dirname, '../../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('Unity package documents', () => {
  it('carries the repository LICENSE and CHANGELOG as they are (run `npm run build`, or `npm run release`, after a change)', () => {
    expect(UNITY_COPIES.map(({ to }) => to)).toEqual(['adapters/unity/LICENSE.md', 'adapters/unity/CHANGELOG.md']);
    for (const { from, to } of UNITY_COPIES) expect(read(to), to).toBe(read(from));
    expect(read('adapters/unity/LICENSE.md')).toMatch(/^MIT License\n/);
  });

  it('has a README that says how to install, set up with the settings asset, what the package holds and its licenses', () => {
    const readme = read('adapters/unity/README.md');
    expect(readme).toMatch(/^# Game Campaign SDK for Unity\n/);
    for (const topic of ['## Install', '## Set up: the settings asset', '## What the package contains', '## License']) expect(readme).toContain(topic);
    expect(readme).toContain('GameCampaignSettings');
    expect(readme).toContain('[Third Party Notices.md](<Third Party Notices.md>)');
    expect(readme).toContain('com.unity.modules.unitywebrequest');
  });

  it('lists every library the .jspre bundles, with its license text from node_modules, and is current', () => {
    const bundled = bundledPackages(ROOT);
    // What the IIFE and its siblings bundle today: IndexedDB storage, the event emitter, SHA-256 for old pages.
    expect(bundled).toEqual(expect.arrayContaining(['idb-keyval', 'mitt', '@noble/hashes']));
    const notices = read(UNITY_NOTICES);
    for (const name of bundled) {
      const { version, license, text } = packageLicense(ROOT, name);
      expect(notices, name).toContain(`## ${name} ${version}\n\nLicense: ${license}.`);
      expect(notices, name).toContain(text);
    }
    expect(notices).toBe(renderNotices(ROOT));
  });

  it('gives the Apache-2.0 libraries the full License text, which their own file only refers to', () => {
    const apache = bundledPackages(ROOT).filter((name) => packageLicense(ROOT, name).license === 'Apache-2.0');
    expect(apache).toContain('idb-keyval');
    expect(packageLicense(ROOT, 'idb-keyval').text).not.toContain('TERMS AND CONDITIONS');
    const notices = read(UNITY_NOTICES);
    expect(notices).toContain('## Apache License 2.0');
    expect(notices).toMatch(/TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION[\s\S]*4\. Redistribution\.[\s\S]*END OF TERMS AND CONDITIONS/);
  });
});
