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
const own = typeof document == 'object' ? (document.currentScript as HTMLScriptElement | null) : null;
const base = own?.src;

/** The part of the Trusted Types API used here. */
type ScriptUrlPolicy = { createScriptURL(url: string): string };
let policy: ScriptUrlPolicy | undefined;

/**
 * `url` as a page that requires Trusted Types for scripts (`require-trusted-types-for 'script'`) accepts it: made by
 * the policy `game-campaign`, which only this module holds and only for the siblings' addresses. Where the page's
 * `trusted-types` directive does not allow that name, the plain string (refused where Trusted Types are required).
 * assumed: the policy's name; the guide tells pages with a `trusted-types` list to add it.
 */
function trustedScriptUrl(url: string): string {
  try {
    policy ??= (globalThis as { trustedTypes?: { createPolicy(name: string, rules: ScriptUrlPolicy): ScriptUrlPolicy } }).trustedTypes?.createPolicy('game-campaign', { createScriptURL: (url) => url });
  } catch {
    // not allowed by the page's trusted-types directive
  }
  return policy ? policy.createScriptURL(url) : url;
}

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
        const url = new URL(file, base).href;
        // Names the file and the fix: a missing sibling is a deployment problem, not the relay's or the storage's.
        const failed = (why = `did not load from ${url}`, fix = 'serve it next to the IIFE') => reject(new Error(`${file} ${why} (global ${globalName}): ${fix}, or include it with a <script>`));
        const script = document.createElement('script');
        // A Content-Security-Policy with a nonce: the sibling carries the IIFE's own.
        script.nonce = own!.nonce;
        try {
          script.src = trustedScriptUrl(url);
        } catch {
          return failed(`was refused by the page's Trusted Types`, `allow the policy 'game-campaign' in its trusted-types directive`);
        }
        script.onload = () => (loaded() ? resolve(loaded()!) : failed());
        script.onerror = () => failed();
        document.head.append(script);
      }),
  );
}
