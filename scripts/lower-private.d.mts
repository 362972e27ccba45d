// Types of lower-private.mjs, for its test.
export declare const PRIVATE_PREFIX: string;
export declare const LOWERED_NAME: RegExp;
export declare function lowerPrivateNames(code: string, sourceType?: 'script' | 'module'): string;
export declare function lowerToEs2020(options?: { target?: string; supported?: Record<string, boolean> }): { name: string; renderChunk(code: string, chunk: unknown, output: { format: string }): Promise<{ code: string; map: null }> };
export declare function compactAsyncCalls(code: string, sourceType?: 'script' | 'module'): string;
