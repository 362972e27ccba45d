/**
 * THE one place that decides which `window.GameCampaign` the Unity bridge tests run over: the built IIFE
 * (`dist/game-campaign.iife.js`, from `npm run build`), evaluated in its own vm context as a page would load
 * it from the WebGL template, with `fetch` routed to the test's relay and emulator.
 * The page has what the browser adapter uses: a happy-dom document/navigator (visibilitychange, pagehide) and a
 * fresh fake-indexeddb. A vm context has no `document.currentScript` to load the IIFE's siblings from, so the page
 * includes the web view's sibling itself, as the browser guide allows (the injection from next to the IIFE is
 * proven in Chromium: test/browser/iife.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Window } from 'happy-dom';
import { IIFE, IIFE_SIBLINGS } from '../../../scripts/entries.mjs';

type Fetch = (input: string | Request, init?: RequestInit) => Promise<Response>;
type AnyRecord = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Globals a page gives the bundle (read when this is called, so fake timers installed before apply). */
const PAGE_GLOBALS = [
  'Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'queueMicrotask', 'console',
  'TextEncoder', 'TextDecoder', 'URL', 'URLSearchParams', 'Headers', 'Request', 'Response', 'AbortController',
  'AbortSignal', 'DOMException', 'crypto', 'structuredClone', 'atob', 'btoa', 'Event', 'EventTarget', 'performance',
];

/** A loaded page: its `window.GameCampaign`, and `close()` for its DOM. */
export interface GameCampaignPage {
  sdk: AnyRecord;
  close(): Promise<void>;
}

/** Loads `window.GameCampaign` from the built IIFE (or another build of it, `file`); its network is `fetch`. */
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
  const file = options.file ?? join(import.meta.dirname, '../../..', IIFE.file);
  vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file });
  const webview = join(import.meta.dirname, '../../..', IIFE_SIBLINGS.webview.file);
  vm.runInContext(readFileSync(webview, 'utf8'), context, { filename: webview });
  const sdk = context['GameCampaign'] as AnyRecord;
  if (typeof sdk?.['createGameCampaign'] !== 'function' || typeof sdk['createBrowserPlatform'] !== 'function') {
    throw new Error(`${file} is not the browser bundle: GameCampaign.createGameCampaign/createBrowserPlatform missing`);
  }
  return { sdk, close };
}
