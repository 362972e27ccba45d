// Types of type-only-exports.mjs, for its test.
export declare function typeOnlyExports(declarations: string, runtime: ReadonlySet<string>): string;
