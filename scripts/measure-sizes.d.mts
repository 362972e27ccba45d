// Types of measure-sizes.mjs, for the bench (TypeScript) that imports it.
export interface SizeRow {
  label: string;
  /** Min+gzip bytes. */
  bytes: number;
  /** The DESIGN section 11 budget for this row, when one applies. */
  budget?: number;
  /** How the bytes were produced (bundler, or the built file as is). */
  tool?: string;
}
export declare function measureSizes(): Promise<SizeRow[]>;
