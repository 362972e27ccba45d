/**
 * A page as the browser lifecycle (adapters/browser/lifecycle.ts) listens to it, for tracker tests that dispatch its
 * events by hand: `window` (pagehide, pageshow) and `document` (visibilitychange, freeze, resume, its visibilityState).
 */
import { createBrowserLifecycle } from '../../../adapters/browser/lifecycle.js';
import { createMemoryPlatform } from '../../../core/memory-platform.js';
import type { FetchLike } from '../../../core/platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { RELAY_URL } from './harness.js';

export interface FakePage {
  window: Window;
  document: Document & { visibilityState: DocumentVisibilityState };
}

export function fakePage(): FakePage {
  const window = new EventTarget() as unknown as Window;
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState }) as unknown as FakePage['document'];
  return { window, document };
}

/** A tracker of player-1 on the memory platform whose lifecycle is the browser's over a {@link fakePage}, sending to `fetch`. */
export function trackerOnPage(fetch: FetchLike): { page: FakePage; tracker: PlaytimeTracker } {
  const page = fakePage();
  const platform = { ...createMemoryPlatform({ fetch }), lifecycle: createBrowserLifecycle(page.window, page.document) };
  return { page, tracker: new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL } }) };
}
