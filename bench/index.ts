/**
 * `npm run bench`: sizes, the tracker's cost, relay throughput and overhead, the backlog drain, memory and
 * the emulator's bulk latency, each row with its DESIGN section 11 budget. Prints the machine and a table,
 * writes bench/results.json and the same table in Markdown (bench/results.md, what docs/performance.md
 * shows). Never part of `npm test`: these figures depend on the machine and its load. Run with
 * `node --expose-gc` (the heap rows need `gc()`); `npm run bench` builds dist first for the size rows.
 * `npm run bench -- relay` runs only the sections whose names start with the words given, prints their rows
 * and writes no results file (those hold whole runs).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { backlogRows } from './backlog.js';
import { emulatorRows } from './emulator.js';
import { relayOwnCostRows, relayThroughputRows } from './relay.js';
import { writeFileSync } from 'node:fs';
import { consoleTable, judge, machine, markdownTable, writeResults, type BenchRow } from './report.js';
import { sizeRows } from './sizes.js';
import { trackerRows } from './tracker.js';

const RESULTS = fileURLToPath(new URL('./results.json', import.meta.url));
/** The same table in Markdown, as docs/performance.md shows it. */
const RESULTS_MARKDOWN = fileURLToPath(new URL('./results.md', import.meta.url));

const allSections: Array<[string, () => Promise<BenchRow[]>]> = [
  ['size', sizeRows],
  ['tracker', trackerRows],
  ['relay throughput', relayThroughputRows],
  ['relay own cost', relayOwnCostRows],
  ['backlog', backlogRows],
  ['emulator', emulatorRows],
];
const only = process.argv.slice(2);
const sections = only.length === 0 ? allSections : allSections.filter(([name]) => only.some((prefix) => name.startsWith(prefix)));

const host = machine();
console.log(`Machine: ${host.cores} cores, ${host.cpuModel}, Node ${host.node}, ${host.platform}, ${host.memoryGB} GB; load average ${host.loadAverageAtStart.join(' / ')}`);
const startedAt = new Date();
const rows: BenchRow[] = [];
/**
 * Per section: wall time, and the CPU time this process got over it. The work is mostly on one thread, so a
 * share well under 1 core while a section runs means other processes took the CPU and its figures are low.
 */
const timings: Array<{ section: string; seconds: number; cpuCores: number }> = [];
for (const [name, measure] of sections) {
  const sectionStart = performance.now();
  const cpuStart = process.cpuUsage();
  rows.push(...(await measure()));
  const seconds = (performance.now() - sectionStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuCores = Math.round(((cpu.user + cpu.system) / 1e6 / seconds) * 100) / 100;
  timings.push({ section: name, seconds: Math.round(seconds * 10) / 10, cpuCores });
  console.log(`  ${name}: ${seconds.toFixed(1)} s, CPU ${cpuCores.toFixed(2)} cores`);
}
const judged = rows.map(judge);
const durationSeconds = Math.round((Date.now() - startedAt.getTime()) / 100) / 10;
console.log(`\n${consoleTable(judged)}\n`);
const over = judged.filter((row) => row.holds === false);
console.log(`${judged.length} rows in ${durationSeconds} s; ${over.length ? `${over.length} over budget: ${over.map((row) => row.name).join('; ')}` : 'every budget holds'}`);
const loadAverageAtEnd = loadavg().map((load) => Math.round(load * 100) / 100);
const cpuLine = timings.map((t) => `${t.section} ${t.seconds} s at ${t.cpuCores} cores`).join(', ');
if (only.length > 0) {
  console.log(`load average at the end ${loadAverageAtEnd.join(' / ')}; CPU this process got: ${cpuLine}; a partial run: no results file written`);
  process.exit(0);
}
console.log(`load average at the end ${loadAverageAtEnd.join(' / ')}; written to bench/results.json and bench/results.md`);
writeResults(RESULTS, { machine: host, loadAverageAtEnd, startedAt: startedAt.toISOString(), durationSeconds, timings, rows: judged });
const machineLine = `${host.cores} cores, ${host.cpuModel}, Node ${host.node}, ${host.platform}; load average ${host.loadAverageAtStart.join(' / ')} at the start, ${loadAverageAtEnd.join(' / ')} at the end`;
writeFileSync(RESULTS_MARKDOWN, `Run of ${startedAt.toISOString()} (${durationSeconds} s) on ${machineLine}.\nCPU this process got per section: ${cpuLine}.\n\n${markdownTable(judged)}\n`);
// Connection pools and the trackers' keep-alive timers are closed or disposed; exit without waiting on stragglers.
process.exit(0);
