// Types of metro-app.mjs, for the tests that import it.
export declare function createAppFolder(files: Record<string, string>, options?: { presetOptions?: Record<string, unknown>; packageFiles?: string[] }): { dir: string; remove(): void };
export declare function metroBundle(options: { dir: string; entry: string; standIns?: Record<string, string>; packageExports?: boolean }): Promise<string>;
