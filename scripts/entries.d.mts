// Types of entries.mjs, for the tests that read the entry list.
export interface Entry {
  name: string;
  source: string;
  subpath: string;
  client?: boolean;
  /** Built as one file of its own, sharing no module (React Native's entries: Metro does not tree-shake). */
  selfContained?: boolean;
}
export declare const ENTRIES: Entry[];
export declare const BINS: Array<{ name: string; source: string }>;
export declare const IIFE: { source: string; file: string; name: string; types: string };
export declare function isExternal(id: string): boolean;
type IifeSibling = { source: string; modules: string[]; file: string; name: string; loader: string };
export declare const IIFE_SIBLINGS: { sha256: IifeSibling; webview: IifeSibling; picker: IifeSibling; leaseLock: IifeSibling; housekeeping: IifeSibling; flusher: IifeSibling };
