/**
 * docs/guides/react-native.md, "The few lines a game needs", as an app copies it: the block is a module of a small
 * app that Metro bundles as a release build (scripts/metro-app.mjs, the TypeScript stripped by
 * @react-native/babel-preset), run on React Native 0.70's Hermes VM over the React Native story suite's device
 * (test/adapters/react-native/hermes/app/device.js: the native modules of the real AsyncStorage, NetInfo and
 * react-native-get-random-values the block imports, AppState, a virtual clock, and the relay at the block's own
 * `https://game.example/campaign`). Only the block's two declarations (the player, the login token) are filled in.
 * The packed-package test compiles the block against React Native's types; this shows it records and delivers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { createAppFolder, metroBundle } from '../../scripts/metro-app.mjs';
import { runStory } from '../adapters/react-native/hermes/hermes.js';

const ROOT = join(import.meta.dirname, '../..');
const DEVICE = join(ROOT, 'test/adapters/react-native/hermes/app');

/** The app's entry: the device first, then the guide's module; plays 2 s, stops at the level's end, flushes, prints what the relay recorded. */
const ENTRY = `import './device.js'; // first: the device's globals (timers, fetch) before any package loads
import './guide'; // the game's module, run as the app loads; it leaves { gc, events } on the global (a named import
// of it would be required where first used, after the play: Metro's inline requires)
import { advance, relay, settle } from './device.js';

const { gc, events } = globalThis.__guide;

(async () => {
  try {
    await settle();
    await advance(2_000);
    await gc.tracker.stop();
    await gc.tracker.flush();
    await settle();
    print('RESULT ' + JSON.stringify({ story: 'guide', outcome: { events }, delivered: relay.delivered, answered: relay.answered }));
  } catch (error) {
    print('RESULT ' + JSON.stringify({ story: 'guide', error: String(error), stack: String(error && error.stack) }));
  }
})();
`;

describe("docs/guides/react-native.md's few lines, bundled by Metro, on Hermes 0.12", () => {
  it('record the session the block starts and deliver it to the relay once, with the campaign it names', async () => {
    const blocks = tsBlocks(readFileSync(join(ROOT, 'docs/guides/react-native.md'), 'utf8')) as Array<{ code: string }>;
    let code = blocks.find((block) => block.code.includes("modules: { AsyncStorage, AppState, NetInfo, Linking }"))!.code;
    const edit = (from: string, to: string) => {
      expect(code, `the example still holds ${from}`).toContain(from);
      code = code.replace(from, to);
    };
    edit('declare const userId: string;', "const userId = 'player-1';");
    edit('declare function sessionToken(): Promise<string>;', "const sessionToken = async () => 'your-login-token';");
    // What the app's test reads: the tracker's events as they came.
    code = `${code}\nconst events: string[] = [];\nfor (const type of ['session:start', 'session:end', 'flushed', 'dropped', 'error'] as const) gc.tracker.on(type, (event: unknown) => events.push(\`\${type} \${JSON.stringify(event).slice(0, 200)}\`));\n(globalThis as any).__guide = { gc, events };\n`;
    const files = {
      'index.js': ENTRY,
      'guide.ts': code,
      'device.js': readFileSync(join(DEVICE, 'device.js'), 'utf8'),
      'react-native.js': readFileSync(join(DEVICE, 'react-native.js'), 'utf8'),
    };
    const app = createAppFolder(files, { presetOptions: { unstable_transformProfile: 'default' } });
    let bundle: string;
    try {
      bundle = await metroBundle({ dir: app.dir, entry: 'index.js', standIns: { 'react-native': join(app.dir, 'react-native.js') } });
    } finally {
      app.remove();
    }
    const run = await runStory(bundle, { story: 'guide' }, 60_000);
    expect(run.failure, run.output).toBeUndefined();
    expect(run.result!.error, run.result!.stack).toBeUndefined();
    expect(run.result!.delivered).toEqual([expect.objectContaining({ campaignId: 'spring-event', durationSeconds: 2 })]);
    expect(run.result!.answered).toEqual(['SUCCESS']);
    const events = (run.result!.outcome as { events: string[] }).events;
    expect(events.filter((event) => /^(dropped|error) /.test(event))).toEqual([]);
    expect(run.console.filter((line) => /^(warn|error) /.test(line))).toEqual([]);
  }, 180_000);
});
