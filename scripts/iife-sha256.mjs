// The IIFE's SHA-256 fallback (adapters/browser/sha256-script.ts). In the IIFE build, the adapters' lazy
// `import('./sha256.js')` (the @noble/hashes re-export) resolves to the loader instead, so the IIFE carries no
// SHA-256 code; the fallback itself is built on its own as `dist/game-campaign.sha256.js` (global GameCampaignSha256).
import { resolve } from 'node:path';
import { IIFE_SHA256 } from './entries.mjs';

const SOURCE = resolve(IIFE_SHA256.source);

/** A rollup plugin: the SHA-256 re-export module becomes the loader of the fallback file. */
export function sha256FromScript() {
  return {
    name: 'sha256-from-script',
    async resolveId(source, importer, options) {
      if (!source.endsWith('sha256.js') || !importer) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && resolve(resolved.id) === SOURCE ? resolve(IIFE_SHA256.loader) : null;
    },
  };
}
