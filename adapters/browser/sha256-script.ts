/**
 * The SHA-256 fallback of the `<script>` bundle (`dist/game-campaign.iife.js`). An IIFE cannot split code, so
 * instead of inlining @noble/hashes for every page, the IIFE build puts this module where the adapters'
 * `import('../shared/sha256.js')` points (scripts/iife-sha256.mjs): on a page without `crypto.subtle`, the
 * first hash adds `<script src="game-campaign.sha256.js">` from the folder the IIFE itself was loaded from, and
 * that file sets the global `GameCampaignSha256`. A page may also include that file itself, before any hash.
 * @see docs/guides/browser.md
 */

/** The global the fallback file sets (`IIFE_SHA256.name` in scripts/entries.mjs). */
const GLOBAL = 'GameCampaignSha256';
/** The fallback file, next to the IIFE (`IIFE_SHA256.file`). */
const FILE = 'game-campaign.sha256.js';

type Hash = (data: Uint8Array) => Uint8Array;
const loaded = () => (globalThis as { [GLOBAL]?: { sha256: Hash } })[GLOBAL]?.sha256;

// Read while the IIFE's own <script> runs (the only moment `document.currentScript` is it); guarded, so the
// bundle still loads where there is no document (a worker, Node's vm).
const base = typeof document == 'object' ? (document.currentScript as HTMLScriptElement | null)?.src : undefined;
let loading: Promise<Hash> | undefined;

/** SHA-256 of `data`, from the fallback file, loaded once on first use. */
export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  loading ??= new Promise<Hash>((resolve, reject) => {
    const fail = (message: string) => {
      loading = undefined; // the next hash tries again
      reject(new Error(message));
    };
    if (loaded()) return resolve(loaded()!);
    if (!base) return fail(`no crypto.subtle and no ${GLOBAL}: include ${FILE} with a <script>, or serve the page over https`);
    const script = document.createElement('script');
    script.src = new URL(FILE, base).href;
    script.onload = () => (loaded() ? resolve(loaded()!) : fail(`${script.src} did not set ${GLOBAL}`));
    script.onerror = () => fail(`the SHA-256 fallback ${script.src} did not load`);
    document.head.append(script);
  });
  return (await loading)(data);
}
