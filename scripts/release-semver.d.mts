// Types of release-semver.mjs, for the semver test.
export type Bump = 'none' | 'patch' | 'minor' | 'major';
export interface ReportChange {
  file: string;
  removed: string[];
  added: string[];
}
export interface Changeset {
  id: string;
  summary: string;
  releases: Array<{ name: string; type: Bump }>;
}
export declare const PACKAGE: string;
export declare const REPORTS: string;
export declare const BASELINE: string;
export declare function declarationLines(report: string): string[];
export declare function lineDiff(before: string[], after: string[]): { removed: string[]; added: string[] };
export declare function apiChanges(root: string): ReportChange[];
export declare function requiredBump(changes: ReportChange[], version: string): Exclude<Bump, 'patch'>;
export declare function parseChangeset(text: string, id?: string): Omit<Changeset, 'id'>;
export declare function pendingChangesets(root: string): Changeset[];
export declare function pendingBump(changesets: Array<Pick<Changeset, 'releases'>>): Bump;
export declare function semverProblems(root: string): string[];
