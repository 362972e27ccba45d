// The Unity package's manifest and WebGL template: what Unity's Package Manager and WebGL build read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const PACKAGE = join(import.meta.dirname, '../../../adapters/unity');

type Manifest = { name: string; version: string; unity: string; samples: Array<{ path: string }>; dependencies?: Record<string, string> } & Record<string, unknown>;
const manifest = () => JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as Manifest;

/**
 * Built-in modules (Unity manual, "Built-in packages") and the API each owns, for the ones a package like this one
 * could use: the manifest must declare every module whose API the code names, so a project that disabled the module
 * gets it back (or a clear error) instead of compile errors in the package.
 */
const MODULE_APIS: Record<string, RegExp> = {
  'com.unity.modules.unitywebrequest': /\bUnityEngine\.Networking\b|\bUnityWebRequest\b|\bDownloadHandler\w*|\bUploadHandler\w*/,
  'com.unity.modules.imgui': /\bGUILayout\b|\bGUI\.\w+|\bOnGUI\b/,
  'com.unity.modules.jsonserialize': /\bJsonUtility\b/,
  'com.unity.modules.androidjni': /\bAndroidJNI\w*|\bAndroidJava(Object|Class|Proxy)\b/,
  'com.unity.modules.unitywebrequestwww': /\bWWW\b/,
  'com.unity.modules.unityanalytics': /\bUnityEngine\.Analytics\b/,
};

/** The package's C# (runtime and samples), comments removed. */
function codeOf(dir: string): string {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.cs'))
    .map((file) => readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, ''))
    .join('\n');
}

/** The built-in modules whose API `code` names. */
function modulesUsedBy(code: string): string[] {
  return Object.entries(MODULE_APIS)
    .filter(([, api]) => api.test(code))
    .map(([module]) => module)
    .sort();
}

describe('Unity package', () => {
  it('has a UPM manifest Unity accepts: reverse-domain lower-case name, semver, a 2021.3+ unity version, samples that exist', () => {
    const { name, version, unity, samples } = manifest();
    expect(name).toMatch(/^com\.[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(unity).toMatch(/^20(2[1-9]|[3-9]\d)\.\d+$|^6000\.\d+$/);
    for (const sample of samples) expect(existsSync(join(PACKAGE, sample.path)), sample.path).toBe(true);
    const asmdef = JSON.parse(readFileSync(join(PACKAGE, 'Runtime/GameCampaign.Runtime.asmdef'), 'utf8')) as { name: string };
    const sampleAsmdef = JSON.parse(readFileSync(join(PACKAGE, 'Samples~/Basic/GameCampaign.Samples.asmdef'), 'utf8')) as { references: string[] };
    expect(sampleAsmdef.references).toEqual([asmdef.name]);
  });

  it('declares every built-in module its code uses, and no other (UnityWebRequest outside WebGL, IMGUI in the sample)', () => {
    const used = modulesUsedBy(`${codeOf(join(PACKAGE, 'Runtime'))}\n${codeOf(join(PACKAGE, 'Samples~'))}`);
    expect(used).toContain('com.unity.modules.unitywebrequest');
    const declared = manifest().dependencies ?? {};
    expect(Object.keys(declared).filter((name) => name.startsWith('com.unity.modules.')).sort()).toEqual(used);
    for (const module of used) expect(declared[module], module).toBe('1.0.0'); // built-in modules are all 1.0.0
  });

  it('finds a module API in code but not in a comment (the check can fail)', () => {
    expect(modulesUsedBy('var json = JsonUtility.ToJson(x);')).toEqual(['com.unity.modules.jsonserialize']);
    expect(modulesUsedBy(codeOf(join(PACKAGE, 'Runtime')).replace(/UnityWebRequest|UnityEngine\.Networking|DownloadHandler\w*|UploadHandler\w*/g, 'X'))).not.toContain('com.unity.modules.unitywebrequest');
    // Json.cs explains in a comment why it does not use JsonUtility: a comment is not a use.
    expect(readFileSync(join(PACKAGE, 'Runtime/Json.cs'), 'utf8')).toContain('JsonUtility');
    expect(modulesUsedBy(codeOf(join(PACKAGE, 'Runtime')))).not.toContain('com.unity.modules.jsonserialize');
  });

  it("links its documentation, changelog and license at this release's tag, to files inside the package", () => {
    const { version, documentationUrl, changelogUrl, licensesUrl } = manifest();
    const links = { documentationUrl, changelogUrl, licensesUrl };
    const files = { documentationUrl: 'README.md', changelogUrl: 'CHANGELOG.md', licensesUrl: 'LICENSE.md' };
    for (const [field, url] of Object.entries(links)) {
      expect(url, field).toMatch(/^https:\/\/\S+$/);
      const file = files[field as keyof typeof files];
      expect(url, field).toMatch(new RegExp(`/blob/v${version.replace(/\./g, '\\.')}/adapters/unity/${file.replace('.', '\\.')}$`));
      expect(existsSync(join(PACKAGE, file)), file).toBe(true);
    }
    // The README's install line and links name the same tag (npm run release moves them together).
    const readme = readFileSync(join(PACKAGE, 'README.md'), 'utf8');
    expect(readme).toContain(`?path=adapters/unity#v${version}`);
    expect(new Set([...readme.matchAll(/#v(\d+\.\d+\.\d+)|\/blob\/v(\d+\.\d+\.\d+)\//g)].map((match) => match[1] ?? match[2]))).toEqual(new Set([version]));
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
