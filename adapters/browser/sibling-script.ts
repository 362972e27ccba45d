/**
 * How the `<script>` bundle (`dist/game-campaign.iife.js`) loads code it needs only sometimes. An IIFE cannot
 * split code, so where the ESM build imports a module lazily (`import()`), the IIFE build points that import at a
 * loader (scripts/iife-siblings.mjs) which, on first use, adds `<script src="<file>">` from the folder the IIFE
 * itself was loaded from; that file sets a global holding the module's exports. A page may also include the file
 * itself, before first use (an inlined IIFE, a strict Content-Security-Policy).
 * @see docs/guides/browser.md
 */
import { once } from '../shared/once.js';

// Read while the IIFE's own <script> runs (the only moment `document.currentScript` is it); guarded, so the
// bundle still loads where there is no document (a worker, Node's vm).
const base = typeof document == 'object' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;

/**
 * A loader of the sibling `file` that sets `globalName`: resolves to that global, loading the file once; a failed
 * load rejects that call and the next one tries again.
 */
export function siblingScript<T>(file: string, globalName: string): () => Promise<T> {
  const loaded = () => (globalThis as Record<string, unknown>)[globalName] as T | undefined;
  return once(
    () =>
      new Promise<T>((resolve, reject) => {
        if (loaded()) return resolve(loaded()!);
        if (!base) return reject(new Error(`${file} is not loaded: include it with a <script>`));
        const script = document.createElement('script');
        // Names the file and the fix: a missing sibling is a deployment problem, not the relay's or the storage's.
        const failed = () => reject(new Error(`${file} did not load from ${script.src} (global ${globalName}): serve it next to the IIFE, or include it with a <script>`));
        script.src = new URL(file, base).href;
        script.onload = () => (loaded() ? resolve(loaded()!) : failed());
        script.onerror = failed;
        document.head.append(script);
      }),
  );
}
