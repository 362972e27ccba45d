// Types of measure-sizes.mjs, for the tests and the bench that import it.
export interface SizeRow {
  label: string;
  /** Names per module specifier, e.g. `{ 'game-campaign-sdk': '{ CampaignClient }' }` (`'*'` for all). */
  import?: Record<string, string>;
  file?: string;
  /** A consumer file's source, bundled as is (for tests). */
  code?: string;
  budget?: number;
}
/** One output file: its name, its gzip bytes alone, and its code. */
export interface SizedFile {
  file: string;
  bytes: number;
  code: string;
}
export interface MeasuredSize {
  label: string;
  /** gzip bytes: the larger of the rollup and esbuild sums (each eager file gzipped alone) for a bundled row. */
  bytes: number;
  budget?: number;
  tool?: string;
  byTool?: { rollup: number; esbuild: number };
  /** Per bundler (`file` for a built file): what loads before the game can call the SDK, and what loads later. */
  files?: Record<string, { eager: SizedFile[]; lazy: SizedFile[] }>;
}
export declare const TARGET: string;
export declare const SIZE_ROWS: SizeRow[];
export declare function gzipBytes(code: string | Uint8Array): number;
export declare function skipReason(row: SizeRow, exportsMap?: Record<string, unknown>): string | undefined;
export declare function measureSizes(options?: { only?: string; budget?: number; rows?: SizeRow[] }): Promise<MeasuredSize[]>;
export declare const START_UP_CODE: number;
