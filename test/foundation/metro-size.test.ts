/**
 * The React Native row of `npm run size` (scripts/metro-size.mjs): what the SDK adds to a Metro release app,
 * which keeps everything the entry reaches. Runs after the build (`npm test` builds first).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Parser } from 'acorn';
import { measureMetroSize, METRO_ROW, type MetroSize } from '../../scripts/metro-size.mjs';
import { START_UP_CODE } from '../../scripts/size-budgets.mjs';
import { ENTRIES } from '../../scripts/entries.mjs';

const ROOT = join(import.meta.dirname, '../..');
let size: MetroSize;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/react-native.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  size = await measureMetroSize();
}, 300_000);

describe('the SDK in a Metro release app (React Native)', () => {
  it('adds no more than its budget, gzip, with the figures all positive (minified, gzip, Hermes bytecode)', () => {
    expect(size.bytes).toBe(size.gzip);
    expect(size.gzip).toBeGreaterThan(0);
    expect(size.js).toBeGreaterThan(size.gzip);
    expect(size.hermes).toBeGreaterThan(size.js);
    expect(size.gzip).toBeLessThanOrEqual(METRO_ROW.budget);
    expect(METRO_ROW.target).toBe(12 * 1024); // DESIGN section 11
    expect(METRO_ROW.budget).toBe(METRO_ROW.target + START_UP_CODE); // as every row with the tracker
  });

  it('bundles the SDK from the built package: the app with it holds the tracker, the app without it holds none of it', () => {
    expect(size.code.withSdk).toContain('PlaytimeTracker: start() after dispose()');
    expect(size.code.without).not.toContain('PlaytimeTracker');
  });

  it('is one Metro module (the self-contained entry) plus mitt: no per-file wrappers, no import() runtime', () => {
    // Metro wraps each file as `__d(function (...) {...}, id, deps)`; the SDK's files were about 80 of them before.
    const modules = (code: string) => code.split('__d(function').length - 1;
    expect(modules(size.code.withSdk) - modules(size.code.without)).toBe(2);
    expect(size.code.withSdk).not.toContain('__loadBundleAsync'); // metro-runtime's asyncRequire: no import() reached
  });

  it("calls none of @babel/runtime's helpers but interopRequireDefault (for mitt): no slicedToArray, no objectWithoutProperties, no asyncToGenerator", () => {
    // Metro's modules: `__d(function (...) {...}, id, [dependency ids])`. The app's Babel adds a helper module to the SDK's
    // dependencies for each construct it lowers with one (array destructuring, object rest, async functions).
    const modules = new Map<number, { code: string; deps: number[] }>();
    for (const part of size.code.withSdk.split(/(?=__d\()/)) {
      const tail = /,(\d+)(?:,\[([\d,]*)\])?\);?\s*$/.exec(part);
      if (tail) modules.set(Number(tail[1]), { code: part, deps: tail[2] ? tail[2].split(',').map(Number) : [] });
    }
    const sdk = [...modules.values()].find((module) => module.code.includes('PlaytimeTracker: start() after dispose()'))!;
    const required = sdk.deps.map((id) => modules.get(id)!.code);
    expect(required).toHaveLength(2);
    expect(required.filter((code) => code.includes('.get("*")'))).toHaveLength(1); // mitt (its wildcard handlers)
    expect(required.filter((code) => /return e&&e\.__esModule\?e:\{default:e\}/.test(code))).toHaveLength(1); // interopRequireDefault
  });

  it('has no loop body Babel wrapped in a generator of its own (a closure over a loop binding inside a lowered async function)', () => {
    // @react-native/babel-preset turns such a loop body into `function* (key) {...}` called with `yield*` at every turn:
    // longer code for the same loop. The SDK declares those bindings out of the loop (core/tracker/housekeeping.ts).
    const sdk = size.code.withSdk.split(/(?=__d\()/).find((part) => part.includes('PlaytimeTracker: start() after dispose()'))!;
    expect(sdk).not.toContain('yield*');
  });

  it("leaves the creator picker to its own entry: an app that does not import it carries none of the picker's code, one that does carries it", () => {
    // `debounceMs` and `cooldownDays` are the picker's own names (its options and its state).
    for (const text of ['debounceMs', 'cooldownDays']) {
      expect(size.code.withSdk, text).not.toContain(text);
      expect(size.code.withPicker, text).toContain(text);
      expect(readFileSync(join(ROOT, 'dist/react-native-picker.js'), 'utf8'), text).toContain(text);
    }
    expect(size.picker.gzip).toBeGreaterThan(0);
    expect(size.picker.js).toBeGreaterThan(size.picker.gzip);
  });

  it.each(ENTRIES.filter((entry) => entry.selfContained).map((entry) => [entry.name]))(
    'dist/%s.js has no async function for the app\'s Babel to lower (each would get its own asyncToGenerator wrapper)',
    (name) => {
      // @react-native/babel-preset lowers every async function to `function f(){return _f.apply(this,arguments)}` plus
      // a generator inside `_asyncToGenerator`; the build lowers them once, to generators under esbuild's one `__async`.
      const asyncFunctions: string[] = [];
      const visit = (node: Record<string, unknown>) => {
        if (node['async'] === true) asyncFunctions.push(String(node['type']));
        for (const value of Object.values(node)) {
          for (const child of Array.isArray(value) ? value : [value]) if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string') visit(child as Record<string, unknown>);
        }
      };
      visit(Parser.parse(readFileSync(join(ROOT, `dist/${name}.js`), 'utf8'), { ecmaVersion: 2020, sourceType: 'module' }) as unknown as Record<string, unknown>);
      expect(asyncFunctions).toEqual([]);
    },
  );

  it('carries none of the page exit: the browser lifecycle supplies it (Lifecycle.pageExit), the React Native entry never reaches it', () => {
    // Names of core/tracker/page-exit.ts's own state, as the built files keep them (Metro's minifier shortens them
    // later, inside the one module it keeps whole): the sessions held for the exit request, the relay headers kept for it.
    const entry = readFileSync(join(ROOT, 'dist/react-native.js'), 'utf8');
    const pageExit = readFileSync(join(ROOT, 'dist/modules/core/tracker/page-exit.js'), 'utf8');
    for (const name of ['heldBytes', 'lastHeaders']) {
      expect(pageExit, name).toContain(name);
      expect(entry, name).not.toContain(name);
    }
  });

  it('reaches no zod, no browser-only code and no IIFE sibling loader', () => {
    for (const text of ['ZodError', '$ZodType', 'indexedDB', 'document.createElement', 'visibilitychange', 'GameCampaignSha256', 'game-campaign.sha256.js', 'game-campaign.flusher.js']) {
      expect(size.code.withSdk, text).not.toContain(text);
    }
  });
});
