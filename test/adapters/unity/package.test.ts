// The Unity package's manifest and WebGL template: what Unity's Package Manager and WebGL build read.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = join(import.meta.dirname, '../../../adapters/unity');

describe('Unity package', () => {
  it('has a UPM manifest Unity accepts: reverse-domain lower-case name, semver, a 2021.3+ unity version, samples that exist', () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { name: string; version: string; unity: string; samples: Array<{ path: string }> };
    expect(manifest.name).toMatch(/^com\.[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.unity).toMatch(/^20(2[1-9]|[3-9]\d)\.\d+$|^6000\.\d+$/);
    for (const sample of manifest.samples) expect(existsSync(join(PACKAGE, sample.path)), sample.path).toBe(true);
    const asmdef = JSON.parse(readFileSync(join(PACKAGE, 'Runtime/GameCampaign.Runtime.asmdef'), 'utf8')) as { name: string };
    const sampleAsmdef = JSON.parse(readFileSync(join(PACKAGE, 'Samples~/Basic/GameCampaign.Samples.asmdef'), 'utf8')) as { references: string[] };
    expect(sampleAsmdef.references).toEqual([asmdef.name]);
  });

  it('ships a WebGL template that loads the IIFE before the Unity loader and uses createUnityInstance', () => {
    const html = readFileSync(join(PACKAGE, 'WebGLTemplates~/GameCampaign/index.html'), 'utf8');
    const sdk = html.indexOf('<script src="TemplateData/game-campaign.iife.js"></script>');
    const loader = html.indexOf('{{{ LOADER_FILENAME }}}');
    expect(sdk).toBeGreaterThan(0);
    expect(loader).toBeGreaterThan(sdk);
    expect(html).toContain('createUnityInstance(');
    expect(html).not.toMatch(/UnityLoader\.instantiate|gameInstance/); // the pre-2020 loader API
  });
});
