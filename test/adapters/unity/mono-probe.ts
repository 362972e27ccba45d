/**
 * Compiles a C# probe with the Unity package's runtime and the stand-in UnityEngine (stubs/) using Debian's mcs,
 * warnings as errors, and runs it on mono: the way the Unity tests reach the package's C#.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../../..');

/** Every `.cs` file under `dir`, recursively. */
export function csFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cs'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The package's runtime sources plus the UnityEngine stubs. */
export function runtimeWithStubs(): string[] {
  return [...csFiles(join(ROOT, 'adapters/unity/Runtime')), ...csFiles(join(import.meta.dirname, 'stubs'))];
}

/** mcs with warnings as errors; throws with its output on failure. */
export function mcs(args: string[]): string {
  try {
    return execFileSync('mcs', ['-warnaserror+', '-warn:4', '-langversion:7', ...args], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`mcs failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/**
 * Compiles csharp/<probe>.cs (with the csharp/<helper>.cs files it needs) and the runtime and stubs into `exe`;
 * `extra`: more source files (the package's samples).
 */
export function compileProbe(probe: string, exe: string, helpers: string[] = [], extra: string[] = []): void {
  const sources = [probe, ...helpers].map((name) => join(import.meta.dirname, 'csharp', `${name}.cs`));
  mcs(['-target:exe', `-out:${exe}`, ...runtimeWithStubs(), ...sources, ...extra]);
}

/**
 * Runs a compiled probe on mono; its stdout. A probe that has not ended within {@link PROBE_TIME_LIMIT_MS} is killed and
 * fails its test: a synchronous run blocks vitest's own time-outs, and a hung mono held a CI run until its end.
 */
export function runProbe(exe: string, args: string[] = []): string {
  return execFileSync('mono', [exe, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: PROBE_TIME_LIMIT_MS, killSignal: 'SIGKILL' });
}

/** Far above any probe's run here (the slowest, full AOT on the loaded 2-core machine, take seconds). */
const PROBE_TIME_LIMIT_MS = 240_000;

/** Compiles and runs a probe that prints one JSON object (its report), in a folder removed afterwards. */
export function probeReport<T>(probe: string, helpers: string[] = [], extra: string[] = []): T {
  const work = mkdtempSync(join(tmpdir(), `unity-${probe}-`));
  try {
    const exe = join(work, `${probe}.exe`);
    compileProbe(probe, exe, helpers, extra);
    return JSON.parse(runProbe(exe)) as T;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
