/** Size rows: min+gzip of each entry and the IIFE as a game gets them, the same measurement as `npm run size`. */
import { measureSizes } from '../scripts/measure-sizes.mjs';
import type { BenchRow } from './report.js';

export async function sizeRows(): Promise<BenchRow[]> {
  return (await measureSizes()).map(({ label, bytes, budget, tool }) => ({
    section: 'size',
    name: `${label}, min+gzip`,
    value: bytes / 1024,
    unit: 'KB',
    ...(budget === undefined ? {} : { budget: { op: '<=', limit: budget / 1024 } }),
    detail: `${bytes.toLocaleString('en-US')} bytes${tool ? `, ${tool}` : ''}`,
  }));
}
