// Types of lower-private.mjs, for its test.
export declare const PRIVATE_PREFIX: string;
export declare function lowerPrivateNames(code: string): string;
export declare function lowerToEs2020(options?: { target?: string }): { name: string; renderChunk(code: string): Promise<{ code: string; map: null }> };
