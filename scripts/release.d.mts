// Types of release.mjs, for the tests of the release.
export declare const UNITY_MANIFEST: string;
export declare const UNITY_README: string;
export declare function retag(text: string, version: string): string;
export declare function syncUnityVersion(root: string): string;
export declare function moveApiBaseline(root: string): number;
export declare const REPOSITORY: string;
export declare const TAGGED_DOCS: string[];
export declare function retagDocs(root: string, version: string): string[];
