/**
 * The bench's rows, the machine they were measured on, the printed table and `bench/results.json`.
 * Every row carries its budget (DESIGN section 11) and whether the measured figure holds it; a reference
 * row (what a budget is compared against) has none.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/** A limit on one row's figure. */
export interface Budget {
  /** How the figure must compare with `limit`. */
  op: '<=' | '>=';
  limit: number;
  /** Where the limit comes from when it is not a DESIGN section 11 figure. */
  source?: string;
}

/** One measured figure. */
export interface BenchRow {
  section: string;
  name: string;
  value: number;
  unit: 'KB' | 'µs' | 'ms' | 's' | 'MB' | 'sessions/s' | 'x';
  budget?: Budget;
  /** How it was measured, when the name does not say (samples, rounds, spread). */
  detail?: string;
}

/** A row with the verdict on its budget: true, false, or null without a budget. */
export type JudgedRow = BenchRow & { holds: boolean | null };

/** The machine a run measured: figures from a shared 2-core box are only comparable on the same box. */
export function machine() {
  const cpuList = cpus();
  return {
    cores: cpuList.length,
    cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryGB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverageAtStart: loadavg().map((load) => Math.round(load * 100) / 100),
  };
}

export function judge(row: BenchRow): JudgedRow {
  const { budget } = row;
  if (!budget) return { ...row, holds: null };
  return { ...row, holds: budget.op === '<=' ? row.value <= budget.limit : row.value >= budget.limit };
}

const DECIMALS: Record<BenchRow['unit'], number> = { KB: 2, µs: 1, ms: 1, s: 2, MB: 2, 'sessions/s': 0, x: 2 };

export function formatValue(value: number, unit: BenchRow['unit']): string {
  const fixed = value.toFixed(DECIMALS[unit]);
  const grouped = unit === 'sessions/s' ? Number(fixed).toLocaleString('en-US') : fixed;
  return `${grouped} ${unit}`;
}

function formatBudget(row: BenchRow): string {
  return row.budget ? `${row.budget.op} ${formatValue(row.budget.limit, row.unit)}${row.budget.source ? ` (${row.budget.source})` : ''}` : '-';
}

const verdict = (holds: boolean | null) => (holds === null ? 'reference' : holds ? 'holds' : 'OVER');

/** The table as Markdown, the form both the console and docs/performance.md show. */
export function markdownTable(rows: JudgedRow[]): string {
  const lines = ['| Section | Measure | Value | Budget | Verdict |', '|---|---|---:|---|---|'];
  for (const row of rows) {
    const name = row.detail ? `${row.name} <br><sub>${row.detail}</sub>` : row.name;
    lines.push(`| ${row.section} | ${name} | ${formatValue(row.value, row.unit)} | ${formatBudget(row)} | ${verdict(row.holds)} |`);
  }
  return lines.join('\n');
}

/** The table for a terminal: one line a row, the details below it. */
export function consoleTable(rows: JudgedRow[]): string {
  const widths = { section: 9, name: 58, value: 20, budget: 26 };
  for (const row of rows) {
    widths.section = Math.max(widths.section, row.section.length);
    widths.name = Math.max(widths.name, row.name.length);
  }
  const line = (section: string, name: string, value: string, budget: string, holds: string) =>
    `${section.padEnd(widths.section)}  ${name.padEnd(widths.name)}  ${value.padStart(widths.value)}  ${budget.padEnd(widths.budget)}  ${holds}`;
  const out = [line('Section', 'Measure', 'Value', 'Budget', 'Verdict'), '-'.repeat(widths.section + widths.name + widths.value + widths.budget + 18)];
  for (const row of rows) {
    out.push(line(row.section, row.name, formatValue(row.value, row.unit), formatBudget(row), verdict(row.holds)));
    if (row.detail) out.push(`${' '.repeat(widths.section + 4)}${row.detail}`);
  }
  return out.join('\n');
}

/** Writes `bench/results.json`: the machine, when, how long, and every row with its verdict. */
export function writeResults(
  file: string,
  result: { machine: ReturnType<typeof machine>; loadAverageAtEnd: number[]; startedAt: string; durationSeconds: number; timings: unknown[]; rows: JudgedRow[] },
): void {
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
}
