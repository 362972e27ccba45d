/**
 * A device probe compiled once: csharp/<probe>.cs with the package's runtime, the UnityEngine stand-ins and the
 * contract runner's main loop and fake relay, the way every managed-tracker test reaches the package's C# on mono.
 */
import { join } from 'node:path';
import { mcs, packageSources } from '../../contract/cs-runner/mono.js';

const RUNNER = join(import.meta.dirname, '../../contract/cs-runner');

export interface DeviceProbeOptions {
  /** cs-runner files besides MainLoop and FakeRelay (UnityProcess: the app's process, quit and kill, stood in). */
  runner?: string[];
  /** csharp/ files besides the probe (ProbeDevice: the shared device folder and relay set-up). */
  helpers?: string[];
  /** Symbols as Unity defines them (UNITY_EDITOR for the Editor's build). */
  defines?: string[];
}

/** Compiles csharp/<probe>.cs into `exe` (warnings as errors); `exe`. */
export function compileDeviceProbe(exe: string, probe: string, { runner = ['UnityProcess'], helpers = ['ProbeDevice'], defines = [] }: DeviceProbeOptions = {}): string {
  const runnerFiles = ['MainLoop', 'FakeRelay', ...runner].map((name) => join(RUNNER, `${name}.cs`));
  const probeFiles = [...helpers, probe].map((name) => join(import.meta.dirname, 'csharp', `${name}.cs`));
  mcs(['-target:exe', ...defines.map((symbol) => `-define:${symbol}`), `-out:${exe}`, ...packageSources(), ...runnerFiles, ...probeFiles]);
  return exe;
}

/** The path of csharp/<probe>.cs compiled into `exe` at the first call, and only then (several tests share it). */
export function deviceProbeOnce(exe: string, probe: string, options?: DeviceProbeOptions): () => string {
  let compiled: string | undefined;
  return () => (compiled ??= compileDeviceProbe(exe, probe, options));
}
