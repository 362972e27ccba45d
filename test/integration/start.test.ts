// `npm start` as a person runs it: it prints one URL, that URL answers with the sample game page, and SIGTERM
// stops everything (npm, tsx, the servers) with nothing left running.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** Pids of the processes still in process group `group`. */
function processesIn(group: number): number[] {
  const lines = execFileSync('ps', ['-eo', 'pid=,pgid='], { encoding: 'utf8' }).trim().split('\n');
  return lines.map((line) => line.trim().split(/\s+/).map(Number)).filter(([, pgid]) => pgid === group).map(([pid]) => pid!);
}

it('npm start serves the sample game on the URL it prints and stops on SIGTERM, leaving no process', async () => {
  // Its own process group, so every process it starts can be found afterwards.
  const child = spawn('npm', ['start', '--silent'], { cwd: ROOT, detached: true, env: { ...process.env, EMULATOR_PORT: '0', PORT: '0' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => output.includes('Ctrl+C stops.') && resolve());
    void exited.then((code) => reject(new Error(`exited early (${code}):\n${output}`)));
  });

  const url = /^ {2}Open (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)?.[1];
  expect(url, output).toBeDefined();
  const page = await fetch(url!);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toContain('<script src="/sdk/game-campaign.iife.js"></script>');
  expect((await fetch(`${url}/sdk/game-campaign.iife.js`)).status).toBe(200);
  expect(output).toMatch(/Client key \S+:\S+/);

  // What Ctrl-C or a service manager does: SIGTERM to the whole group (npm, tsx and the node process it runs).
  process.kill(-child.pid!, 'SIGTERM');
  const deadline = Date.now() + 5_000;
  while (processesIn(child.pid!).length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(processesIn(child.pid!), `still running 5 s after SIGTERM:\n${output}`).toEqual([]);
  expect(await exited).not.toBeUndefined();
}, 120_000);
