/**
 * Runs the server stories (story-app.ts) on a runtime the README names, from its npm package (node_modules/.bin), as
 * a game server runs there: the entry and the stories compiled by esbuild, the SDK imported from the built dist/
 * (`npm test` builds it first), served on 127.0.0.1 and driven over HTTP from this Node process, which also runs the
 * emulator. Bun and Deno resolve dist's dependencies from node_modules themselves (Deno with
 * `--node-modules-dir=manual`, no remote imports, no network beyond 127.0.0.1, a DENO_DIR of its own); workerd gets
 * one bundled Worker and a capnp config, as wrangler would build it (wrangler needs Node 22).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';

export const ROOT = join(import.meta.dirname, '../..');
export type RuntimeName = 'node' | 'bun' | 'deno' | 'workerd';

/** The binary of each runtime, from its npm package. */
export const RUNTIME_BINARIES: Record<RuntimeName, string> = {
  node: process.execPath,
  bun: join(ROOT, 'node_modules/.bin/bun'),
  deno: join(ROOT, 'node_modules/.bin/deno'),
  workerd: join(ROOT, 'node_modules/.bin/workerd'),
};

/** True when dist/ is built; else the suite fails with how to build it (as the other dist suites do). */
export function requireDist(): void {
  if (!existsSync(join(ROOT, 'dist/server.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
}

/** A runtime serving the stories. */
export interface Launched {
  url: string;
  /** What it printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Settings of a launch (the stories' config, and a Worker's compatibility date). */
export interface LaunchOptions {
  emulatorUrl: string;
  serverKey: string;
  gameOrigin: string;
  /** workerd only. @defaultValue '2024-10-14' (the minimum the docs name) */
  compatibilityDate?: string;
}

/** Starts `runtime` serving the stories and resolves once it answers. */
export async function launch(runtime: RuntimeName, options: LaunchOptions): Promise<Launched> {
  requireDist();
  const work = mkdtempSync(join(tmpdir(), `gc-${runtime}-`));
  const config = { emulatorUrl: options.emulatorUrl, serverKey: options.serverKey, gameOrigin: options.gameOrigin };
  if (runtime === 'workerd') return launchWorkerd(work, config, options.compatibilityDate ?? '2024-10-14');
  // Beside dist/ (build/ is ignored by git), so the output's relative import of dist and its node_modules resolve.
  const outDir = join(ROOT, 'build/runtimes');
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${runtime}.mjs`);
  const node = runtime === 'node' ? `import { toNodeHandler } from '${join(ROOT, 'dist/node.js')}';` : '';
  await compile(`import * as sdk from '${join(ROOT, 'dist/server.js')}';${node}import { start } from './test/runtimes/entries/${runtime}.ts';start(sdk${node ? ', toNodeHandler' : ''});`, file, { external: join(outDir) });
  const args = JSON.stringify({ ...config, port: 0 });
  const env: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: work, NO_COLOR: '1' };
  const command: [string, string[]] =
    runtime === 'node'
      ? [RUNTIME_BINARIES.node, [file, args]]
      : runtime === 'bun'
        ? [RUNTIME_BINARIES.bun, ['run', '--no-install', file, args]]
        : [RUNTIME_BINARIES.deno, ['run', '--no-prompt', '--no-remote', '--cached-only', '--no-config', '--node-modules-dir=manual', '--allow-net=127.0.0.1', file, args]];
  if (runtime === 'deno') Object.assign(env, { DENO_DIR: join(work, 'deno'), DENO_NO_UPDATE_CHECK: '1' });
  const child = spawn(command[0], command[1], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const process_ = watch(child, work);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', () => {
      const match = /listening (\d+)/.exec(process_.output());
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${runtime} exited with ${code} before listening:\n${process_.output()}`)));
  });
  return { url: `http://127.0.0.1:${port}`, ...process_ };
}

/** The Worker: one bundle (dist and its dependencies), served by workerd from a capnp config on a free port. */
async function launchWorkerd(work: string, config: Omit<LaunchOptions, 'compatibilityDate'>, compatibilityDate: string): Promise<Launched> {
  await compile(`import * as sdk from '${join(ROOT, 'dist/server.js')}';import { worker } from './test/runtimes/entries/workerd.ts';export default worker(sdk);`, join(work, 'worker.js'), { bundleAll: true });
  return serveWorker(work, { ...config }, compatibilityDate);
}

/**
 * A Worker as a studio deploys it: `source` (TypeScript, `game-campaign-sdk/server` importing the built dist/) bundled
 * by esbuild for the neutral platform with no shim, as wrangler builds it, its `bindings` as text (secrets and vars), served
 * by workerd. (test/docs/worker-guides.test.ts runs the guides' Worker blocks so.)
 */
export async function launchWorker(source: string, bindings: Record<string, string>, compatibilityDate = '2024-10-14'): Promise<Launched> {
  requireDist();
  const work = mkdtempSync(join(tmpdir(), 'gc-worker-'));
  await compile(source.replaceAll("'game-campaign-sdk/server'", `'${join(ROOT, 'dist/server.js')}'`), join(work, 'worker.js'), { bundleAll: true });
  return serveWorker(work, bindings, compatibilityDate);
}

/** workerd serving `work`/worker.js with text `bindings`, on a free port; resolves once it answers. */
async function serveWorker(work: string, bindings: Record<string, string>, compatibilityDate: string): Promise<Launched> {
  const port = await freePort();
  const texts = Object.entries(bindings).map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`);
  writeFileSync(
    join(work, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The Worker's outbound fetch reaches the emulator on loopback, which workerd's default network refuses.
    (name = "loopback", network = (allow = ["local", "private", "public"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "${compatibilityDate}",
  # No nodejs_compat: the server entry reaches no Node built-in (core/relay/limiters.ts).
  bindings = [ ${texts.join(', ')} ],
  globalOutbound = "loopback",
);
`,
  );
  const child = spawn(RUNTIME_BINARIES.workerd, ['serve', join(work, 'config.capnp')], { cwd: work, env: { PATH: process.env['PATH'], HOME: work }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = `http://127.0.0.1:${port}`;
  const launched = { url, ...watch(child, work) };
  // workerd prints nothing when it listens: ask until it answers (a bounded number of tries).
  for (let attempt = 0; ; attempt++) {
    const answered = await fetch(`${url}/ready`).then(() => true, () => false);
    if (answered) return launched;
    if (attempt >= 100 || child.exitCode !== null) {
      await launched.stop();
      throw new Error(`workerd did not answer on ${url}:\n${launched.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The shared part of a launch: output kept for messages, stopped by its own pid, its temp folder removed. */
function watch(child: ChildProcess, work: string): Omit<Launched, 'url'> {
  const logs = { text: '' };
  child.stdout?.on('data', (chunk: Buffer) => (logs.text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (logs.text += chunk.toString()));
  return {
    output: () => logs.text,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(work, { recursive: true, force: true });
    },
  };
}
/**
 * esbuild of an entry given as source. `external`: dist/ stays an import (relative to the output in `external`'s
 * folder) and so do packages, for a runtime that resolves them; `bundleAll`: one file, as a Worker needs, built
 * for the neutral platform with no shim, so a Node built-in anywhere in what it reaches fails the build.
 */
async function compile(contents: string, outfile: string, mode: { external: string } | { bundleAll: true }): Promise<void> {
  const plugins: Plugin[] = [];
  if ('external' in mode) {
    plugins.push({
      name: 'dist-external',
      setup(b) {
        b.onResolve({ filter: /\/dist\/[a-z-]+\.js$/ }, (args) => ({ path: relative(mode.external, args.path).replace(/^(?!\.)/, './'), external: true }));
      },
    });
  }
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile,
    logLevel: 'error',
    plugins,
    ...('external' in mode ? { platform: 'node', packages: 'external' } : { platform: 'neutral', mainFields: ['module', 'main'], conditions: ['workerd', 'worker', 'import'] }),
  });
}

/** A port nobody listens on now (workerd takes its port from its config). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
