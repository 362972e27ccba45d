// Types of metro-app.mjs, for the tests that import it.
export declare function createAppFolder(files: Record<string, string>, options?: { presetOptions?: Record<string, unknown>; packageFiles?: string[]; toolchain?: 'today' | 'rn-0.70' }): { dir: string; remove(): void };
export declare function metroBundle(options: { dir: string; entry: string; standIns?: Record<string, string>; packageExports?: boolean; toolchain?: 'today' | 'rn-0.70' }): Promise<string>;
