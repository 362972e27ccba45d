/**
 * The package's Basic sample as a game copies it: its component subscribes to the tracker's static events in Start
 * and unsubscribes in OnDestroy, so a scene loaded again and again neither piles up handlers nor keeps its destroyed
 * copies alive (csharp/SampleProbe.cs on mono, the bridge answered by hand).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { npmStartServers } from '../../helpers/npm-start.js';
import { compileProbe, csFiles, probeReport } from './mono-probe.js';

const run = promisify(execFile);

interface Report {
  loads: Array<{ afterStart: Record<string, number>; afterDestroy: Record<string, number> }>;
}

describe('Unity Basic sample', () => {
  it('leaves no handler on the tracker events once destroyed, however often its scene loads', () => {
    const samples = csFiles(join(import.meta.dirname, '../../../adapters/unity/Samples~'));
    const report = probeReport<Report>('SampleProbe', ['HandNative'], samples);
    const none = { SessionStarted: 0, SessionEnded: 0, Flushed: 0, Dropped: 0, Error: 0 };
    const subscribed = { ...none, Flushed: 1, Dropped: 1, Error: 1 };
    expect(report.loads).toEqual([1, 2, 3].map(() => ({ afterStart: subscribed, afterDestroy: none })));
  }, 120_000);
});

/**
 * docs/guides/unity.md: the sample's "defaults point at the local emulator (`npm start` prints its URL and keys) and a
 * relay on http://127.0.0.1:8788/campaign". Run as the guide says, against `npm start`'s servers (here on free ports:
 * csharp/SampleServerProbe.cs moves only the ports), in Play mode (the C# implementation on mono). It used a Client
 * key the emulator does not have and sent the player id as the relay's token, which `npm start`'s toy login never
 * issued: the creator list failed 401 and every flush was refused 401.
 */
describe('Unity Basic sample against `npm start`', () => {
  const servers = npmStartServers();
  const work = mkdtempSync(join(tmpdir(), 'unity-sample-server-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('with its defaults signs in at the toy login, lists the creators and records a session once', async () => {
    const exe = join(work, 'sample-server.exe');
    compileProbe('SampleServerProbe', exe, [], csFiles(join(import.meta.dirname, '../../../adapters/unity/Samples~')));
    const { stdout } = await run('mono', [exe, servers.emulator.url, servers.game.url], { env: { ...process.env, GAME_CAMPAIGN_PERSISTENT_DATA_PATH: join(work, 'data') } });
    const report = JSON.parse(stdout) as { defaults: Record<string, string>; afterStart: string; afterStop: string; sessionId: string };
    expect(report.afterStart).toBe('ready (C# implementation: Editor or non-WebGL player)');
    expect(report.afterStop).toBe('sent 1 session(s)');
    const recorded = servers.emulator.state().sessions.filter((session: { sessionId: string }) => session.sessionId === report.sessionId);
    expect(recorded).toEqual([expect.objectContaining({ userId: report.defaults['playerId'], durationSeconds: 3 })]);
    expect(report.defaults).toMatchObject({
      clientKey: servers.emulator.clientKey,
      baseUrl: 'http://127.0.0.1:8787',
      relayUrl: 'http://127.0.0.1:8788/campaign',
      loginUrl: 'http://127.0.0.1:8788/login',
    });
  }, 120_000);
});
