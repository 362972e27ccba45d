#!/usr/bin/env node
// Size report: prints every row of measure-sizes.mjs and fails when a budget of DESIGN section 11 that
// applies to what exists is exceeded. Sizes are deterministic, so this runs in `npm test`.
import { measureSizes } from './measure-sizes.mjs';

const KB = 1024;
let failed = false;
for (const { label, bytes, budget } of await measureSizes()) {
  const over = budget !== undefined && bytes > budget;
  failed ||= over;
  const limit = budget === undefined ? '' : ` / ${(budget / KB).toFixed(1)} KB${over ? '  OVER BUDGET' : ''}`;
  console.log(`${label.padEnd(44)} ${(bytes / KB).toFixed(2).padStart(6)} KB${limit}`);
}
if (failed) {
  console.error('size: over budget (DESIGN section 11)');
  process.exit(1);
}
