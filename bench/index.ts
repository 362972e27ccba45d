/**
 * `npm run bench`: sizes, the tracker's cost, relay throughput and overhead, the backlog drain, memory and
 * the emulator's bulk latency, each row with its DESIGN section 11 budget. Prints the machine and a table
 * and writes bench/results.json. Never part of `npm test`: these figures depend on the machine and its load.
 * Run with `node --expose-gc` (the heap rows need `gc()`); `npm run bench` builds dist first for the size rows.
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { backlogRows } from './backlog.js';
import { emulatorRows } from './emulator.js';
import { relayOwnCostRows, relayThroughputRows } from './relay.js';
import { consoleTable, judge, machine, writeResults, type BenchRow } from './report.js';
import { sizeRows } from './sizes.js';
import { trackerRows } from './tracker.js';

const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));

const sections: Array<[string, () => Promise<BenchRow[]>]> = [
  ['size', sizeRows],
  ['tracker', trackerRows],
  ['relay throughput', relayThroughputRows],
  ['relay own cost', relayOwnCostRows],
  ['backlog', backlogRows],
  ['emulator', emulatorRows],
];

const host = machine();
console.log(`Machine: ${host.cores} cores, ${host.cpuModel}, Node ${host.node}, ${host.platform}, ${host.memoryGB} GB; load average ${host.loadAverageAtStart.join(' / ')}`);
const startedAt = new Date();
const rows: BenchRow[] = [];
for (const [name, measure] of sections) {
  const sectionStart = performance.now();
  rows.push(...(await measure()));
  console.log(`  ${name}: ${((performance.now() - sectionStart) / 1000).toFixed(1)} s`);
}
const judged = rows.map(judge);
const durationSeconds = Math.round((Date.now() - startedAt.getTime()) / 100) / 10;
console.log(`\n${consoleTable(judged)}\n`);
const over = judged.filter((row) => row.holds === false);
console.log(`${judged.length} rows in ${durationSeconds} s; ${over.length ? `${over.length} over budget: ${over.map((row) => row.name).join('; ')}` : 'every budget holds'}`);
const loadAverageAtEnd = loadavg().map((load) => Math.round(load * 100) / 100);
console.log(`load average at the end ${loadAverageAtEnd.join(' / ')}; written to bench/results.json`);
writeResults(RESULTS, { machine: host, loadAverageAtEnd, startedAt: startedAt.toISOString(), durationSeconds, rows: judged });
// Connection pools and the trackers' keep-alive timers are closed or disposed; exit without waiting on stragglers.
process.exit(0);
