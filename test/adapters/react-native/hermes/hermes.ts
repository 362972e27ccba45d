/**
 * The story app (app/) bundled by Metro (scripts/metro-app.mjs) and run on the Hermes VM React Native 0.70 ships
 * (npm `hermes-engine-cli` 0.12.0). Today's `hermesc` (npm `hermes-compiler`, what React Native builds a release
 * with now) must compile the bundle too; its bytecode (version 99) is not the one that VM reads (89), so the run
 * uses the bytecode of the VM's own `hermesc`, as a React Native 0.70 release build does.
 *
 * The VM runs with `-Xmicrotask-queue`: every promise job runs before the next task (a native module's answer,
 * a timer), as on React Native's JS thread. React Native 0.70's Promise schedules its jobs with `setImmediate`,
 * and immediates run "at the end of the current JavaScript execution block, right before sending the batched
 * response back to native"; one queued from an immediate runs "right away, it won't yield back to native in
 * between" (facebook/react-native docs/Timers.md); newer versions use Hermes' microtask queue. Without the
 * flag the CLI interleaves promise jobs with its timers, which no React Native app does.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createAppFolder, metroBundle } from '../../../../scripts/metro-app.mjs';

const ROOT = join(import.meta.dirname, '../../../..');
const APP = join(import.meta.dirname, 'app');
export const HERMES_VM = join(ROOT, 'node_modules/hermes-engine-cli/linux64-bin/hermes');
export const HERMESC_OF_VM = join(ROOT, 'node_modules/hermes-engine-cli/linux64-bin/hermesc');
export const HERMESC_TODAY = join(ROOT, 'node_modules/hermes-compiler/hermesc/linux64-bin/hermesc');

/** The AsyncStorage the app passes: 3.1.1's module, or the default export of 2.2.0, 1.23.1 or 1.17.3. */
export type StoryStorage = 'v3' | 'v2' | 'v1.23' | 'v1.17';
/** The NetInfo the app passes: 12.0.1, 11.4.1 or 9.3.5. */
export type StoryNetInfo = 'v12' | 'v11' | 'v9';
/** The react-native-get-random-values the app imports first (app/random.js): 2.0.0, 1.11.0 or 1.8.0; none (an Expo app passing expo-crypto). */
export type StoryRandom = 'v2' | 'v1.11' | 'v1.8' | 'none';

/** What a story run printed: its result, or how it ended without one. */
export interface StoryRun {
  result?: { story: string; storage: string; netInfo: string; random: string; outcome?: any; error?: string; stack?: string; delivered: Array<{ sessionId: string; durationSeconds: number; metadata?: string }>; answered: string[]; disk: unknown };
  steps: string[];
  /** What the app wrote to `console`, `level text` per call. */
  console: string[];
  /** `timed out after the step "stop"`, a VM error, or undefined when the app printed its result. */
  failure?: string;
  output: string;
}

/** The story's result; a run that printed none fails with how it ended, an app that failed with its error. */
export function outcomeOf(run: StoryRun): NonNullable<StoryRun['result']> {
  if (!run.result) throw new Error(`${run.failure}\n${run.output}`);
  if (run.result.error) throw new Error(`the app failed: ${run.result.error}\n${run.result.stack}`);
  return run.result;
}

/**
 * The 'no-answer' story's outcome, on React Native 0.70's AbortController (abort-controller 3: no `signal.reason`, so
 * the error is the SDK's own): a read fails with TimeoutError saying how long it waited, the session ends, and the
 * tracker reports the relay unreachable with that cause, delivering nothing.
 */
export function expectNoAnswer(run: NonNullable<StoryRun['result']>, minutes: number): void {
  expect(run.outcome.read).toBe('TimeoutError TIMEOUT No response within 5000 ms');
  expect(run.outcome.ends).toEqual([{ reason: 'stop', durationSeconds: minutes * 60 }]);
  expect(run.outcome.reported).toEqual([
    { kind: 'relay', message: expect.stringMatching(/^Relay https:\/\/game\.example\/campaign unreachable 3 times while online \(.*\); sessions kept$/), cause: 'TimeoutError TIMEOUT No response within 30000 ms' },
  ]);
  expect(run.delivered).toEqual([]);
}

/**
 * Bundles the story app: Metro release build, @react-native/babel-preset for an engine that is not Hermes V1
 * (`unstable_transformProfile: 'default'`, so classes are lowered for Hermes 0.12), `react-native`, `expo` and
 * `expo-modules-core` the stand-ins (app/react-native.js, app/expo.js). `toolchain: 'rn-0.70'`: React Native 0.70's
 * own Metro 0.72.3 and metro-react-native-babel-preset 0.72.3 instead (scripts/metro-app.mjs), package exports off.
 */
export async function bundleStoryApp(options: { packageExports: boolean; packageFiles?: string[]; toolchain?: 'today' | 'rn-0.70' }): Promise<string> {
  const files = Object.fromEntries(readdirSync(APP).map((name) => [name, readFileSync(join(APP, name), 'utf8')]));
  const { toolchain = 'today' } = options;
  // React Native 0.70's preset has no transform profiles: it lowers classes and block scoping always.
  const presetOptions = toolchain === 'today' ? { unstable_transformProfile: 'default' } : {};
  const app = createAppFolder(files, { presetOptions, packageFiles: options.packageFiles, toolchain });
  try {
    return await metroBundle({ dir: app.dir, entry: 'index.js', standIns: { 'react-native': join(app.dir, 'react-native.js'), expo: join(app.dir, 'expo.js'), 'expo-modules-core': join(app.dir, 'expo.js') }, packageExports: options.packageExports, toolchain });
  } finally {
    app.remove();
  }
}

/** Runs a program; resolves with its exit code (null when killed), output and whether the time ran out. */
function run(file: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const killed = child.killed || (error as { killed?: boolean } | null)?.killed === true;
      resolve({ code: child.exitCode, stdout: String(stdout), stderr: String(stderr), timedOut: killed });
    });
  });
}

/** Compiles `source` to bytecode with `hermesc` (`-emit-binary -O`); throws with the compiler's output on failure. */
export async function compile(hermesc: string, source: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'gc-hermesc-'));
  try {
    writeFileSync(join(dir, 'bundle.js'), source);
    const { code, stderr } = await run(hermesc, ['-emit-binary', '-O', '-out', join(dir, 'bundle.hbc'), join(dir, 'bundle.js')], 120_000);
    if (code !== 0) throw new Error(`${hermesc} failed (${code}): ${stderr.slice(0, 2000)}`);
    return readFileSync(join(dir, 'bundle.hbc'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs one story of the bundle on the Hermes 0.12 VM: `input` prepended as `__STORY__`, compiled by the VM's
 * `hermesc`, run with a time limit (a frozen JavaScript thread never exits: it is killed and reported, not waited for).
 */
export async function runStory(bundle: string, input: { story: string; storage?: StoryStorage; netInfo?: StoryNetInfo; random?: StoryRandom; disk?: unknown; delivered?: unknown; seed?: number; withoutRandomModule?: boolean; storageFaults?: Record<string, unknown>; startOptions?: unknown; backgroundMs?: number; netInfoAtStart?: 'unknown'; relayRecords?: boolean; killed?: boolean; netInfoLate?: boolean; awake?: boolean; startInEffect?: boolean; expoCrypto?: 'v12.2' }, timeoutMs = 20_000): Promise<StoryRun> {
  const bytecode = await compile(HERMESC_OF_VM, `var __STORY__ = ${JSON.stringify(input)};\n${bundle}`);
  const dir = mkdtempSync(join(tmpdir(), 'gc-hermes-run-'));
  try {
    writeFileSync(join(dir, 'app.hbc'), bytecode);
    const { code, stdout, stderr, timedOut } = await run(HERMES_VM, ['-Xmicrotask-queue', join(dir, 'app.hbc')], timeoutMs);
    const lines = stdout.split('\n');
    const steps = lines.filter((line) => line.startsWith('STEP ')).map((line) => line.slice(5));
    const console = lines.filter((line) => line.startsWith('CONSOLE ')).map((line) => line.slice(8));
    const resultLine = lines.find((line) => line.startsWith('RESULT '));
    const output = `${stdout}${stderr}`.slice(-4000);
    if (resultLine) return { result: JSON.parse(resultLine.slice(7)), steps, console, output };
    const where = steps.length ? `after the step "${steps[steps.length - 1]}"` : 'before its first step';
    return { steps, console, output, failure: timedOut ? `the Hermes VM did not finish within ${timeoutMs} ms (${where})` : `the Hermes VM exited with ${code} ${where}: ${stderr.slice(0, 1000)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
