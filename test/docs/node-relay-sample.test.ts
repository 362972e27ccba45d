/**
 * samples/node-relay runs as its header says, against the emulator: started with `npx tsx`, it prints the address it
 * listens on (PORT=0 here, a free port) and relays a player's request with its toy session.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';

const ROOT = join(import.meta.dirname, '../..');

describe('samples/node-relay', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(() => emulator.close());

  it('prints the address it listens on, and relays a web view token for the demo session there', async () => {
    const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['samples/node-relay/server.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', CAMPAIGN_SERVER_KEY: emulator.serverKey, CAMPAIGN_BASE_URL: emulator.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const printed = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = /relay on (\S+)/.exec(out);
          if (line) resolve(line[1]!);
        });
        child.once('exit', (code) => reject(new Error(`the sample exited (${code}) before printing its address: ${out}`)));
      });
      // Before, it printed http://localhost:8080/campaign whatever PORT said.
      expect(printed).toMatch(/^http:\/\/localhost:\d+\/campaign$/);
      expect(printed).not.toBe('http://localhost:0/campaign');
      const response = await fetch(`${printed}/webview/ott`, {
        method: 'POST',
        headers: { authorization: 'Bearer demo-token', 'content-type': 'application/json' },
        body: JSON.stringify({ codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' }),
      });
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: { ott: string; url: string } };
      expect(data.ott).toMatch(/^ott_/);
      expect(data.url).toBe(`${emulator.url}/webview`);
    } finally {
      child.kill();
    }
  }, 60_000);
});
