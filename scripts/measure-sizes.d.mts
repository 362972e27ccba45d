// Types of measure-sizes.mjs, for the tests and the bench that import it.
export interface SizeRow {
  label: string;
  from?: string;
  names?: string;
  file?: string;
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
export declare function measureSizes(options?: { only?: string; budget?: number }): Promise<MeasuredSize[]>;
