// Types of unity-meta.mjs, for the tests that check the Unity package's .meta files.
export declare const UNITY_PACKAGE: string;
export declare function ignoredByUnity(name: string): boolean;
export declare function unityAssets(packageDir: string): string[];
export declare function guidOf(packageName: string, assetPath: string): string;
export declare function importerOf(assetPath: string): string[];
export declare function renderMeta(packageName: string, assetPath: string): string;
export declare function metaPathOf(assetPath: string): string;
export declare function renderMetas(packageDir: string): Map<string, string>;
export declare function presentMetas(packageDir: string): string[];
export declare function metaProblems(packageDir: string): string[];
