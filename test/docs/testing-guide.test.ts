/**
 * The emulator guide's "Your game's tests" example runs as written, against the built package: the SDK's own name
 * resolves to dist/ from inside this repository (Node's package self-reference, as samples/ import it), so the run
 * is what a studio's test gets from the installed package. README listed `game-campaign-sdk/testing` and no page
 * showed how a game's test puts it together with the emulator and a relay.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';

const ROOT = join(import.meta.dirname, '../..');

describe("docs/guides/emulator.md, your game's tests", () => {
  it('the example records the session the player stopped offline, once back online', () => {
    if (!existsSync(join(ROOT, 'dist/testing.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
    const blocks = tsBlocks(readFileSync(join(ROOT, 'docs/guides/emulator.md'), 'utf8')) as Array<{ code: string }>;
    const example = blocks.find((block) => block.code.includes("from 'game-campaign-sdk/testing'"));
    expect(example, 'the guide has an example importing game-campaign-sdk/testing').toBeDefined();
    const said = /console\.log\(.*\/\/ (.*)$/m.exec(example!.code)?.[1];
    expect(said, 'the example says what it prints').toBeDefined();
    const dir = join(ROOT, 'build/doc-snippets-run');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'testing-guide.mts');
    writeFileSync(file, example!.code);
    const printed = execFileSync(join(ROOT, 'node_modules/.bin/tsx'), [file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(printed.trim()).toBe(said);
    expect(JSON.parse(said!)).toEqual([['player-1', 'cmp_spring_festival']]);
  }, 90_000);
});
