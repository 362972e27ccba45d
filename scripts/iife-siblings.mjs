// The IIFE's siblings (adapters/browser/sibling-script.ts). In the IIFE build, a lazy `import()` of a module a sibling
// holds resolves to the sibling's loader instead, so the IIFE carries none of its code; each sibling is built on its
// own as `dist/game-campaign.<name>.js`, setting its global (scripts/entries.mjs, IIFE_SIBLINGS).
import { resolve } from 'node:path';
import { IIFE_SIBLINGS } from './entries.mjs';

/** Each module the IIFE does not carry as it is, and what it carries instead. */
const LOADERS = new Map([
  ...Object.values(IIFE_SIBLINGS).flatMap((sibling) => sibling.modules.map((module) => [resolve(module), resolve(sibling.loader)])),
]);

/** A rollup plugin: each module a sibling holds becomes the sibling's loader, except inside the loader's own imports. */
export function siblingsFromScripts() {
  return {
    name: 'siblings-from-scripts',
    async resolveId(source, importer, options) {
      if (!importer || LOADERS.has(resolve(importer)) || [...LOADERS.values()].includes(resolve(importer))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return (resolved && LOADERS.get(resolve(resolved.id))) ?? null;
    },
  };
}
