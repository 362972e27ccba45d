/**
 * Compiling and running the Unity package's C# under mono, in two modes: JIT (the Editor) and full AOT (`mono
 * --aot=full` on the framework and the program, then `mono --full-aot`), which forbids JIT as iOS and IL2CPP do:
 * code that needs it (Reflection.Emit, a generic instantiation no static analysis can see) fails to run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '../../..');

/** Every `.cs` file under `dir`. */
export function csFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cs'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The package's runtime and the UnityEngine stand-ins, as the Editor compiles them (no UNITY_WEBGL). */
export function packageSources(): string[] {
  return [...csFiles(join(ROOT, 'adapters/unity/Runtime')), ...csFiles(join(ROOT, 'test/adapters/unity/stubs'))];
}

/** mcs with warnings as errors (the `-out:` folder made first); throws with its output on failure. */
export function mcs(args: string[]): void {
  const out = args.find((arg) => arg.startsWith('-out:'));
  if (out) mkdirSync(dirname(out.slice('-out:'.length)), { recursive: true });
  const result = spawnSync('mcs', ['-warnaserror+', '-warn:4', '-langversion:7', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`mcs failed:\n${result.stdout}${result.stderr}`);
}

/**
 * What Debian's mono 6.8 loads for a program using System and System.Core (found by running under --full-aot until
 * nothing was missing: System.dll references the others).
 */
const FRAMEWORK = ['mscorlib', 'System', 'System.Core', 'Mono.Security', 'System.Xml', 'System.Configuration', 'System.Security', 'System.Numerics'];
const FRAMEWORK_DIR = '/usr/lib/mono/4.5';

/** `mono --aot=full` of one assembly in `dir` (MONO_PATH=dir, so the copies there are the ones loaded). */
function aotCompile(dir: string, assembly: string): void {
  const result = spawnSync('mono', ['--aot=full', assembly], { cwd: dir, env: { ...process.env, MONO_PATH: dir }, encoding: 'utf8' });
  if (result.status !== 0 || !existsSync(join(dir, `${assembly}.so`))) throw new Error(`mono --aot=full ${assembly} failed (${result.status}):\n${result.stdout}${result.stderr}`);
}

/**
 * A folder holding the framework assemblies compiled ahead of time, made once per mono version (in the system's
 * temporary folder: the framework takes ~20 s to compile, the same every run).
 */
export function aotFramework(): string {
  const version = execFileSync('mono', ['--version'], { encoding: 'utf8' }).split('\n')[0]!.replace(/[^A-Za-z0-9.]+/g, '-');
  const dir = join(tmpdir(), `game-campaign-mono-aot-${version}`);
  if (existsSync(join(dir, 'complete'))) return dir;
  // Made in a folder of its own, then renamed into place: two test runs at once never see half of it.
  const building = mkdtempSync(`${dir}-building-`);
  for (const name of FRAMEWORK) {
    copyFileSync(join(FRAMEWORK_DIR, `${name}.dll`), join(building, `${name}.dll`));
    aotCompile(building, `${name}.dll`);
  }
  writeFileSync(join(building, 'complete'), version);
  try {
    renameSync(building, dir);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another run finished first
  }
  return dir;
}

/** Copies `exe` next to the AOT framework in `into`, compiles it ahead of time, and returns the copy's path. */
export function aotProgram(exe: string, into: string): string {
  const framework = aotFramework();
  mkdirSync(into, { recursive: true });
  for (const file of readdirSync(framework)) if (file.endsWith('.dll') || file.endsWith('.so')) copyFileSync(join(framework, file), join(into, file));
  const copy = join(into, basename(exe));
  copyFileSync(exe, copy);
  aotCompile(into, basename(exe));
  return copy;
}

/**
 * Runs a program on mono, JIT or full AOT (nothing may be compiled at run time); its exit status and output. `locale`:
 * the device's (`LANG`, which mono's CurrentCulture follows), e.g. `tr_TR.UTF-8`; `extraEnv`: more of the environment
 * (`LD_PRELOAD`).
 */
export function runMono(exe: string, args: string[], mode: 'jit' | 'full-aot', locale?: string, extraEnv: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const dir = join(exe, '..');
  const options = mode === 'full-aot' ? ['--full-aot'] : [];
  const env = { ...process.env, ...(mode === 'full-aot' ? { MONO_PATH: dir } : {}), ...(locale ? { LANG: locale, LC_ALL: locale } : {}), ...extraEnv };
  const result = spawnSync('mono', [...options, exe, ...args], { encoding: 'utf8', env, maxBuffer: 64 << 20, timeout: 240_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
