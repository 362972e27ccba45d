/**
 * THE one place that decides which `window.GameCampaign` the Unity bridge tests run over, with `fetch` routed to
 * the test's relay and emulator, in its own vm context. By default the package's GameCampaign.jspre, run as Unity
 * runs it: prepended to the framework's JavaScript (emcc --pre-js), i.e. inside the module function Unity's loader
 * calls (assumed: Unity's `build.framework.js` is `function unityFramework(Module) { ... }`, Emscripten's
 * MODULARIZE shell, which places --pre-js code inside that function), so its `var`s are local, there is no
 * `document.currentScript`, and it must set `window.GameCampaign` and find the siblings itself.
 * Or another IIFE build (`file`), loaded as the optional WebGL template loads `dist/game-campaign.iife.js`; a vm
 * context has no `document.currentScript` to load the IIFE's siblings from, so the page then includes the web view's
 * sibling itself, as the browser guide allows (the injection from next to the IIFE is proven in Chromium:
 * test/browser/iife.test.ts).
 * The page has what the browser adapter uses: a happy-dom document/navigator (visibilitychange, pagehide) and a
 * fresh fake-indexeddb.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Window } from 'happy-dom';
import { IIFE_SIBLINGS } from '../../../scripts/entries.mjs';
import { UNITY_JSPRE } from '../../../scripts/unity-jspre.mjs';

type Fetch = (input: string | Request, init?: RequestInit) => Promise<Response>;
type AnyRecord = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Globals a page gives the bundle (read when this is called, so fake timers installed before apply). */
const PAGE_GLOBALS = [
  'Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'console',
  'TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'Headers', 'Request', 'Response', 'AbortController',
  'AbortSignal', 'DOMException', 'crypto', 'structuredClone', 'atob', 'btoa', 'Event', 'EventTarget', 'performance',
];

/** A loaded page: its `window` (holding `GameCampaign`), and `close()` for its DOM. */
export interface GameCampaignPage {
  window: AnyRecord;
  sdk: AnyRecord;
  close(): Promise<void>;
}

/** Loads `window.GameCampaign` from the package's .jspre (or from an IIFE build, `file`); its network is `fetch`. */
export function loadGameCampaignGlobal(options: { fetch: Fetch; file?: string }): GameCampaignPage {
  const dom = new Window({ url: 'http://game.local/' });
  const page: AnyRecord = Object.fromEntries(PAGE_GLOBALS.map((name) => [name, (globalThis as AnyRecord)[name]]));
  Object.assign(page, {
    fetch: options.fetch,
    document: dom.document,
    navigator: dom.navigator,
    location: dom.location,
    addEventListener: dom.addEventListener.bind(dom),
    removeEventListener: dom.removeEventListener.bind(dom),
    indexedDB: new IDBFactory(),
    IDBKeyRange,
  });
  page['window'] = page;
  page['self'] = page;
  const close = () => dom.happyDOM.close();
  const context = vm.createContext(page);
  const root = join(import.meta.dirname, '../../..');
  const file = options.file ?? join(root, UNITY_JSPRE);
  if (options.file) {
    vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file });
    const webview = join(root, IIFE_SIBLINGS.webview.file);
    vm.runInContext(readFileSync(webview, 'utf8'), context, { filename: webview });
  } else {
    const framework = `function unityFramework(Module) {\n${readFileSync(file, 'utf8')}\n}\nunityFramework({});`;
    vm.runInContext(framework, context, { filename: file, lineOffset: -1 });
  }
  const sdk = context['GameCampaign'] as AnyRecord;
  if (typeof sdk?.['createGameCampaign'] !== 'function' || typeof sdk['createBrowserPlatform'] !== 'function') {
    throw new Error(`${file} is not the browser bundle: GameCampaign.createGameCampaign/createBrowserPlatform missing`);
  }
  return { window: page, sdk, close };
}
