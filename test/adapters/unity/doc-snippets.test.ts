/**
 * The C# a Unity developer copies from the package README and docs/guides/unity.md compiles against the package as
 * written (mcs, warnings as errors, the UnityEngine stand-ins). A block that declares a class is compiled as it is: it
 * is presented as a whole script. A fragment is compiled inside an async method of a MonoBehaviour that declares
 * only what a game brings itself (`playerId`, `sessionToken`, and the game's own `ShowLocked`/`Redraw`); its `using`
 * lines and `[SerializeField]` fields go where C# wants them, and only the warnings of a fragment's setting are let
 * pass (a repeated `using`, a value shown but not used).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mcs, runtimeWithStubs } from './mono-probe.js';

const ROOT = join(import.meta.dirname, '../../..');
const DOCUMENTS = ['adapters/unity/README.md', 'docs/guides/unity.md'];
const work = mkdtempSync(join(tmpdir(), 'unity-doc-snippets-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The ```csharp blocks of a markdown file. */
function csharpBlocks(path: string): string[] {
  return [...readFileSync(join(ROOT, path), 'utf8').matchAll(/```csharp\n([\s\S]*?)```/g)].map((match) => match[1]!);
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
  for (const document of DOCUMENTS) {
    const blocks = csharpBlocks(document);
    it(`${document} has C# blocks`, () => expect(blocks.length).toBeGreaterThan(0));
    blocks.forEach((block, index) => {
      it(`${document}, block ${index + 1}`, () => {
        const name = `Snippet${DOCUMENTS.indexOf(document)}_${index + 1}`;
        const source = join(work, `${name}.cs`);
        writeFileSync(source, compilationUnit(block, name));
        const fragmentWarnings = isScript(block) ? [] : ['-nowarn:0105,0219,0414'];
        expect(() => mcs(['-target:library', ...fragmentWarnings, `-out:${join(work, `${name}.dll`)}`, ...runtimeWithStubs(), source])).not.toThrow();
      }, 60_000);
    });
  }
});
