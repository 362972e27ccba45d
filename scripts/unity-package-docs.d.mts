// Types of unity-package-docs.mjs, for the tests of the Unity package's documents.
export declare const UNITY_NOTICES: string;
export declare const UNITY_COPIES: ReadonlyArray<{ from: string; to: string }>;
export declare function writeUnityCopies(root?: string): void;
export declare function bundledPackages(root?: string): string[];
export declare function packageLicense(root: string, name: string): { name: string; version: string; license: string; source: string; text: string };
export declare function renderNotices(root?: string): string;
export declare function writeNotices(root?: string): void;
