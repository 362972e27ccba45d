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
export interface MeasuredSize {
  label: string;
  /** min+gzip bytes: the larger of the rollup and esbuild figures for a bundled row. */
  bytes: number;
  budget?: number;
  tool?: string;
  byTool?: { rollup: number; esbuild: number };
}
export declare const SIZE_ROWS: SizeRow[];
export declare function skipReason(row: SizeRow, exportsMap?: Record<string, unknown>): string | undefined;
export declare function measureSizes(options?: { only?: string; budget?: number; rows?: SizeRow[] }): Promise<MeasuredSize[]>;
