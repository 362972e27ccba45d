#!/usr/bin/env node
// Prints the closing line CI reads, `N passed, N failed[, N skipped]`, from vitest's JSON report.
// A missing report (the run stopped before the tests) counts as one failure, so it is never mistaken for success.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'reports/vitest.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const failed = report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
