/**
 * The guides' blocks that are not TypeScript (test/docs/docs.test.ts compiles those; the Unity C# blocks compile in
 * test/adapters/unity/doc-snippets.test.ts) hold as copied: every shell line installs packages the SDK supports, runs
 * a script or bin that exists with options it reads; every JSON block parses (the Unity manifest line names the
 * package the Unity package is); the Cocos guide's Java bridge compiles with javac, answers `n` random bytes as hex
 * and has the JNI signature the Cocos sample calls it by. Its Objective-C twin is not compiled: no Foundation
 * headers here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { markdownFiles } from '../../scripts/doc-snippets.mjs';

const ROOT = join(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'other-snippets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Block = { file: string; line: number; code: string };

/** The blocks of one language in README.md, docs/ and adapters/unity/README.md (indented ones too). */
function blocks(language: string): Block[] {
  const found: Block[] = [];
  for (const file of [...(markdownFiles() as string[]), 'adapters/unity/README.md']) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = new RegExp(`^(\\s*)\`\`\`${language}\\s*$`).exec(lines[i]!);
      if (!open) continue;
      let end = i + 1;
      while (end < lines.length && !/^\s*```/.test(lines[end]!)) end++;
      found.push({ file, line: i + 2, code: lines.slice(i + 1, end).map((line) => line.slice(open[1]!.length)).join('\n') });
      i = end;
    }
  }
  return found;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  peerDependencies: Record<string, string>;
};

describe("the guides' other blocks", () => {
  // Each command a shell block shows: what a studio would type. A package it installs is the SDK or one of the
  // peers it supports; `npm run` a script of package.json; `npx` the SDK's bin (with options its CLI reads) or a
  // tool of this repository's; `node` a file that exists.
  it('every shell line installs a supported package or runs something that exists', () => {
    const emulatorCli = readFileSync(join(ROOT, 'emulator/cli.ts'), 'utf8');
    const wrong: string[] = [];
    const sh = blocks('sh');
    expect(sh.length).toBeGreaterThan(5);
    for (const block of sh) {
      block.code.split('\n').forEach((text, index) => {
        const command = text.replace(/\s+#.*$/, '').trim();
        if (!command || command.startsWith('#')) return;
        const at = `${block.file}:${block.line + index}: ${command}`;
        for (const part of command.split(/\s*&&\s*/)) {
          const words = part.split(/\s+/);
          const install = /^(npm install|npx expo install)( |$)/.exec(part);
          if (install) {
            const names = part.slice(install[0].length).split(/\s+/).filter((word) => word && !word.startsWith('-'));
            for (const name of names) if (name !== pkg.name && !(name in pkg.peerDependencies)) wrong.push(`${at} (${name} is neither the SDK nor a peer it supports)`);
          } else if (words[0] === 'npm' && words[1] === 'run') {
            if (!(words[2]! in pkg.scripts)) wrong.push(`${at} (no script ${words[2]})`);
          } else if (words[0] === 'npm') {
            if (!['start', 'test', 'ci'].includes(words[1]!) && !(words.length === 2 && words[1] === 'install')) wrong.push(`${at} (an npm command the check does not know)`);
          } else if (words[0] === 'npx') {
            if (words[1]! in pkg.bin) {
              for (const flag of words.slice(2).filter((word) => word.startsWith('--'))) {
                if (!emulatorCli.includes(`'${flag.slice(2)}'`) && !emulatorCli.includes(` ${flag.slice(2)}: {`)) wrong.push(`${at} (the CLI reads no ${flag})`);
              }
            } else if (!existsSync(join(ROOT, 'node_modules/.bin', words[1]!))) wrong.push(`${at} (no ${words[1]} here)`);
          } else if (words[0] === 'node') {
            const script = words.find((word, i) => i > 0 && !word.startsWith('-'));
            if (!script || !existsSync(join(ROOT, script))) wrong.push(`${at} (no file ${script})`);
          } else {
            wrong.push(`${at} (a command the check does not know)`);
          }
        }
      });
    }
    expect(wrong).toEqual([]);
  });

  it('every JSON block parses, and the Unity manifest line names the Unity package', () => {
    const json = blocks('json');
    expect(json.length).toBeGreaterThan(0);
    const unityName = (JSON.parse(readFileSync(join(ROOT, 'adapters/unity/package.json'), 'utf8')) as { name: string }).name;
    for (const block of json) {
      const value = JSON.parse(block.code) as { dependencies?: Record<string, string> };
      if (block.file === 'docs/guides/unity.md') expect(Object.keys(value.dependencies ?? {}), `${block.file}:${block.line}`).toEqual([unityName]);
    }
  });

  it.runIf(spawnSync('javac', ['-version']).status === 0)(
    "the Cocos guide's Java bridge compiles, answers n random bytes as hex, and has the signature the sample calls",
    () => {
      const java = blocks('java');
      expect(java.map((block) => block.file)).toEqual(['docs/guides/cocos.md']);
      const code = java[0]!.code;
      const pathLine = /^\/\/ native\/engine\/android\/app\/src\/(\S+\.java)$/m.exec(code);
      expect(pathLine, 'the block names the file it goes in').not.toBeNull();
      const source = join(work, 'src', pathLine![1]!);
      mkdirSync(join(source, '..'), { recursive: true });
      writeFileSync(source, code);
      const classes = join(work, 'classes');
      execFileSync('javac', ['-Xlint:all', '-Werror', '-d', classes, source], { encoding: 'utf8' });
      // What samples/cocos/CampaignComponent.ts hands native.reflection.callStaticMethod on Android.
      const sample = readFileSync(join(ROOT, 'samples/cocos/CampaignComponent.ts'), 'utf8');
      const call = /callStaticMethod\('([\w/]+)', '(\w+)', '([^']+)'/.exec(sample);
      expect(call, 'the sample calls the bridge').not.toBeNull();
      const [, className, method, signature] = call!;
      const described = execFileSync('javap', ['-s', '-cp', classes, className!.replaceAll('/', '.')], { encoding: 'utf8' });
      expect(described).toMatch(new RegExp(`public static java\\.lang\\.String ${method}\\(int\\);\\n\\s+descriptor: ${signature!.replace(/[()[\]$]/g, '\\$&')}`));
      writeFileSync(join(work, 'Probe.java'), `public class Probe { public static void main(String[] a) { System.out.print(${className!.replaceAll('/', '.')}.${method}(16)); } }`);
      execFileSync('javac', ['-cp', classes, '-d', classes, join(work, 'Probe.java')]);
      const printed = execFileSync('java', ['-cp', classes, 'Probe'], { encoding: 'utf8' });
      expect(printed).toMatch(/^[0-9a-f]{32}$/);
    },
    60_000,
  );
});
