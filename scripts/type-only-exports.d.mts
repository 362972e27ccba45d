// Types of type-only-exports.mjs, for its tests.
export declare function typeOnlyExports(declarations: string, runtime: ReadonlySet<string>): string;
export declare function typeOnlyReport(report: string, runtime: ReadonlySet<string>): string;
export declare function typeOnlyModel(model: { members: [{ members: unknown[] }] }, runtime: ReadonlySet<string>): { removed: string[]; typeOnly: string[] };
export declare const TYPE_ONLY_NOTE: string;
export declare const SCHEMA_NOTE: string;
