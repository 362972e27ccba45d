/**
 * The C# a Unity developer copies from any Markdown page (the package README, docs/guides/unity.md, README.md, the
 * rest of docs/ and samples/) compiles against the package as written (mcs, warnings as errors, the UnityEngine
 * stand-ins). A block that declares a class is compiled as it is: it is presented as a whole script. Any other block is
 * statements and fields of a game's own MonoBehaviour, which C# cannot take on their own, so it must be marked as a
 * fragment on the line before its fence (`<!-- snippet: fragment: <reason> -->`, as scripts/doc-snippets.mjs reads
 * TypeScript fragments), saying what of the game's it uses. It is compiled inside an async method of a MonoBehaviour
 * that declares only what a game brings itself (`playerId`, `sessionToken`, and the game's own `ShowLocked`/`Redraw`);
 * its `using` lines and `[SerializeField]` fields go where C# wants them, and only the warnings of a fragment's setting
 * are let pass (a repeated `using`, a value shown but not used).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mcs, runtimeWithStubs } from './mono-probe.js';

const ROOT = join(import.meta.dirname, '../../..');
/** Every Markdown file a developer reads C# in: found, not listed, so a new page's blocks are compiled too. */
const DOCUMENTS = [
  'README.md',
  'adapters/unity/README.md',
  ...['docs', 'samples'].flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.md') && !file.startsWith('api/') && !file.startsWith('reference/'))
      .map((file) => `${dir}/${file}`),
  ),
].filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('```csharp'));
const work = mkdtempSync(join(tmpdir(), 'unity-doc-snippets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The ```csharp blocks of a markdown file, with the fragment marker on the line before each fence. */
function csharpBlocks(path: string): Array<{ code: string; fragment?: string }> {
  return [...readFileSync(join(ROOT, path), 'utf8').matchAll(/(?:^|\n)(?:<!--\s*snippet:\s*fragment:\s*(\S[^\n]*?)\s*-->\n)?```csharp\n([\s\S]*?)```/g)].map((match) => ({
    code: match[2]!,
    ...(match[1] ? { fragment: match[1] } : {}),
  }));
}

/** A whole script: a block that declares a class. */
const isScript = (block: string) => /^\s*(public |internal )?(sealed |static )?(partial )?class /m.test(block);

/** A compilable file for one block: a whole script as it is, a fragment in a game's MonoBehaviour. */
function compilationUnit(block: string, name: string): string {
  if (isScript(block)) return block;
  const lines = block.split('\n');
  const usings = lines.filter((line) => line.startsWith('using '));
  const fields = lines.filter((line) => line.startsWith('[SerializeField]'));
  const body = lines.filter((line) => !usings.includes(line) && !fields.includes(line));
  return [
    'using System; using System.Collections.Generic; using GameCampaignSdk; using UnityEngine;',
    ...usings,
    `public sealed class ${name} : MonoBehaviour {`,
    '  private string playerId = "player-1"; private string sessionToken = "token";',
    '  private void ShowLocked(long days) { } private void Redraw(object creators, object selected, bool canConfirm, long? cooldownDays) { }',
    ...fields,
    '  private async void Snippet() {',
    ...body,
    '  }',
    '}',
  ].join('\n');
}

describe('Unity documents: every C# block compiles against the package', () => {
  it('the C# pages are found (the Unity guide and the package README among them)', () => {
    expect(DOCUMENTS).toEqual(expect.arrayContaining(['adapters/unity/README.md', 'docs/guides/unity.md']));
  });
  for (const document of DOCUMENTS) {
    const blocks = csharpBlocks(document);
    it(`${document} has C# blocks`, () => expect(blocks.length).toBeGreaterThan(0));
    blocks.forEach((block, index) => {
      it(`${document}, block ${index + 1}`, () => {
        // A block of statements copied on its own does not compile: the page says it is a fragment, and of what.
        if (!isScript(block.code)) expect(block.fragment, 'a fragment marked <!-- snippet: fragment: <reason> --> before its fence').toBeDefined();
        const name = `Snippet${DOCUMENTS.indexOf(document)}_${index + 1}`;
        const source = join(work, `${name}.cs`);
        writeFileSync(source, compilationUnit(block.code, name));
        const fragmentWarnings = isScript(block.code) ? [] : ['-nowarn:0105,0219,0414'];
        expect(() => mcs(['-target:library', ...fragmentWarnings, `-out:${join(work, `${name}.dll`)}`, ...runtimeWithStubs(), source])).not.toThrow();
      }, 60_000);
    });
  }
});
