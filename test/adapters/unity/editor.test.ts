/**
 * The package's C# implementation (the Editor's Play mode and non-WebGL players), compiled with mcs against the
 * stand-in UnityEngine (stubs/: UnityWebRequest over HttpWebRequest, Application.persistentDataPath/OpenURL/quitting)
 * and run on mono (csharp/EditorProbe.cs), against the emulator and a relay served over HTTP by this test: Play mode
 * records a session through the relay exactly once, and a session queued while the relay was unreachable (or running
 * when Play mode ended) is sent by the next run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS, startEmulator, type RunningEmulator } from '../../../emulator/index.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'unity-editor-'));
const dataPath = join(work, 'persistent');
const probe = join(work, 'editor-probe.exe');
let emulator: RunningEmulator;
let relayServer: ServerType;
let relayUrl: string;

function csFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.cs'))
    .map((entry) => join(entry.parentPath, entry.name));
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url }, maxRetries: 0 });
  // The game's login stand-in: the bearer token is the player's id.
  const relay = createRelay({ server, authenticate: (request) => ({ userId: (request.headers.get('authorization') ?? '').replace(/^Bearer /, '') }) });
  relayServer = await new Promise<ServerType>((resolve) => {
    const listening = serve({ fetch: (request) => relay.fetch(request), port: 0, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  relayUrl = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}/campaign`;
  const sources = [...csFiles(join(ROOT, 'adapters/unity/Runtime')), ...csFiles(join(import.meta.dirname, 'stubs')), join(import.meta.dirname, 'csharp/EditorProbe.cs')];
  await run('mcs', ['-warnaserror+', '-warn:4', '-langversion:7', '-target:exe', `-out:${probe}`, ...sources]);
});

afterAll(async () => {
  await new Promise((resolve) => relayServer?.close(resolve));
  await emulator?.close();
  rmSync(work, { recursive: true, force: true });
});

type Report = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** One Play mode session of the probe. */
async function playMode(phase: string, userId: string, relay = relayUrl, last = DEMO_ACTIVE_CAMPAIGN_ID): Promise<Report> {
  const { stdout } = await run('mono', [probe, phase, emulator.clientKey, userId, relay, emulator.url, last], {
    env: { ...process.env, GAME_CAMPAIGN_PERSISTENT_DATA_PATH: dataPath },
  });
  return JSON.parse(stdout) as Report;
}

const recorded = (sessionId: string) => emulator.state().sessions.filter((session: { sessionId: string }) => session.sessionId === sessionId);

describe('Unity C# implementation in Play mode (mono, emulator, relay over HTTP)', () => {
  it('reads, boosts through the relay, opens the web view with PKCE, and records a session exactly once', async () => {
    const report = await playMode('record', DEMO_USERS.inCooldown);
    expect(report['supported']).toBe(true);
    expect(report['webgl']).toBe(false);
    expect(report['campaign']).toBe(DEMO_ACTIVE_CAMPAIGN_ID);
    expect(report['search']).toEqual(['LUNA7']);
    expect(report['boost']).toEqual({ name: 'BoostCooldownError', code: 'BAD_REQUEST', status: 400, daysRemaining: 20 });
    expect(report['missing']).toEqual({ name: 'NotFoundError', code: 'NOT_FOUND', status: 404 });
    expect(report['picker']).toMatchObject({ code: 'WEBGL_ONLY' });

    const sessionId = report['sessionId'] as string;
    expect(report['events']).toEqual([`session:start ${sessionId}`, `session:end ${sessionId} stop 5`, `flushed ${sessionId} SUCCESS`]);
    expect(report['queued']).toBe(0);
    const sessions = recorded(sessionId);
    expect(sessions).toHaveLength(1);
    const session = sessions[0]!;
    expect(session).toMatchObject({ userId: DEMO_USERS.inCooldown, durationSeconds: 5, campaignId: DEMO_ACTIVE_CAMPAIGN_ID });
    // The device clock was 3 h behind; sentAt let the relay date the session by its own clock (within a minute).
    expect(Math.abs(Date.parse(session.startedAt) - Date.now())).toBeLessThan(60_000);
    expect(emulator.state().webview.tokens).toMatchObject([{ userId: DEMO_USERS.inCooldown }]);
    const [opened] = report['openedUrls'] as string[];
    expect(opened).toMatch(/\?ott=[^#]+#code_verifier=[A-Za-z0-9_-]{43}$/);
    expect(report['continuationsOnMainThread']).toBe(true);
    expect(report['loggedExceptions']).toEqual([]);
  });

  it('keeps sessions while the relay is unreachable and when Play mode ends mid-session; the next run sends each once', async () => {
    const player = DEMO_USERS.noBoost;
    const offline = await playMode('queue', player, 'http://127.0.0.1:1/campaign');
    const [first, second] = offline['sessionIds'] as string[];
    expect(offline['events']).toEqual([`session:start ${first}`, `session:end ${first} stop 7`, `session:start ${second}`, `session:end ${second} dispose 3`]);
    expect(offline['queued']).toBe(2);
    expect([...recorded(first!), ...recorded(second!)]).toEqual([]);

    // Another player's run does not send this player's queue.
    const other = await playMode('recover', DEMO_USERS.changeable);
    expect(other['events']).toEqual([]);
    expect([...recorded(first!), ...recorded(second!)]).toEqual([]);

    const next = await playMode('recover', player);
    expect(next['events']).toEqual([`flushed ${first} SUCCESS`, `flushed ${second} SUCCESS`]);
    expect(next['queued']).toBe(0);
    expect(recorded(first!)).toMatchObject([{ userId: player, durationSeconds: 7 }]);
    expect(recorded(second!)).toMatchObject([{ userId: player, durationSeconds: 3 }]);

    const again = await playMode('recover', player);
    expect(again['events']).toEqual([]);
    expect(recorded(first!)).toHaveLength(1);
  }, 90_000); // four Play mode runs (mono processes): a loaded CI machine takes more than the default 30 s

  it('opens no web view address that is not http(s): Application.OpenURL would hand it to the system', async () => {
    // Before, whatever the relay answered went to Application.OpenURL: a file: path (which Windows runs), an app's own
    // scheme, or a relative address opened as it was. A stand-in relay answers one address per request.
    const urls = ['file:///C:/Windows/System32/calc.exe', 'javascript:alert(1)', '/webview', 'HTTPS://view.example/webview?lang=en'];
    const answers = [...urls];
    const hostile = await new Promise<ServerType>((resolve) => {
      const listening = serve({
        fetch: (request) => (new URL(request.url).pathname.endsWith('/webview/ott')
          ? Response.json({ data: { ott: 'ott_1', expiresIn: 60, url: answers.shift() } })
          : Response.json({ status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'stand-in' }, { status: 404 })),
        port: 0,
        hostname: '127.0.0.1',
      }, () => resolve(listening));
    });
    try {
      const report = await playMode('webview-urls', 'player-hostile-relay', `http://127.0.0.1:${(hostile.address() as AddressInfo).port}/campaign`, String(urls.length));
      // The relay's answer shown, as core/webview/open-page.ts (the WebGL build, every JavaScript platform) reports it.
      const refused = (address: string) => ({ name: 'Error', code: 'JS_ERROR', message: expect.stringMatching(new RegExp(`^gc\\.webview\\.open: the relay answered with an unexpected body: \\{.*"url": ?"${address.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"`)) });
      expect(report['errors']).toEqual([refused('file:///C:/Windows/System32/calc.exe'), refused('javascript:alert(1)'), refused('/webview'), 'no error']);
      expect(report['openedUrls']).toEqual([expect.stringMatching(/^HTTPS:\/\/view\.example\/webview\?lang=en&ott=ott_1#code_verifier=[A-Za-z0-9_-]{43}$/)]);
    } finally {
      await new Promise((resolve) => hostile.close(resolve));
    }
  }, 60_000);

  it('opens no page for a token answer without a non-empty ott or a url: the relay\'s answer is shown, as in JavaScript', async () => {
    // Before, an ott that was empty or missing opened {url}?ott= (which the service refuses) and a missing url read as an
    // address that is not http(s); core/webview/open-page.ts reports both as an unexpected body.
    const bodies: Array<Record<string, unknown>> = [
      { ott: '', expiresIn: 60, url: 'https://view.example/webview' },
      { expiresIn: 60, url: 'https://view.example/webview' },
      { ott: 'ott_1', expiresIn: 60 },
      { ott: 'ott_2', expiresIn: 60, url: 'https://view.example/webview' },
    ];
    const relay = await new Promise<ServerType>((resolve) => {
      const listening = serve({
        fetch: (request) => (new URL(request.url).pathname.endsWith('/webview/ott')
          ? Response.json({ data: bodies.shift() })
          : Response.json({ status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'stand-in' }, { status: 404 })),
        port: 0,
        hostname: '127.0.0.1',
      }, () => resolve(listening));
    });
    try {
      const report = await playMode('webview-urls', 'player-odd-relay', `http://127.0.0.1:${(relay.address() as AddressInfo).port}/campaign`, '4');
      const unexpected = { name: 'Error', code: 'JS_ERROR', message: expect.stringMatching(/^gc\.webview\.open: the relay answered with an unexpected body: \{/) };
      expect(report['errors']).toEqual([unexpected, unexpected, unexpected, 'no error']);
      expect(report['openedUrls']).toEqual([expect.stringMatching(/^https:\/\/view\.example\/webview\?ott=ott_2#code_verifier=[A-Za-z0-9_-]{43}$/)]);
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  }, 60_000);

  it('of two WebView.Open calls in a row the one called last is shown, its token asked for after the first; an Open overtaken by Close or Dispose opens nothing', async () => {
    // Before, both token requests raced and both pages went to Application.OpenURL, the answer that arrived last on top:
    // here the stand-in (as the service, which ends a player's older token as it issues a newer one) answers the first
    // request only once a second one has come or 300 ms passed, so the replaced token's page was the one on top.
    const tokens: Array<{ ott: string; campaignId: string }> = [];
    let inFlight = 0;
    let mostInFlight = 0;
    let second: (() => void) | undefined;
    const standIn = await new Promise<ServerType>((resolve) => {
      const listening = serve({
        fetch: async (request) => {
          if (!new URL(request.url).pathname.endsWith('/webview/ott')) return Response.json({ status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'stand-in' }, { status: 404 });
          const body = (await request.json()) as { campaignId: string };
          const token = { ott: `ott_${tokens.length + 1}`, campaignId: body.campaignId };
          tokens.push(token);
          mostInFlight = Math.max(mostInFlight, ++inFlight);
          if (tokens.length === 1) await new Promise<void>((wake) => { second = wake; setTimeout(wake, 300); });
          else second?.();
          inFlight--;
          return Response.json({ data: { ott: token.ott, expiresIn: 60, url: `https://view.example/webview?campaign=${token.campaignId}` } });
        },
        port: 0,
        hostname: '127.0.0.1',
      }, () => resolve(listening));
    });
    try {
      const report = await playMode('webview-overtaken', 'player-double-tap', `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/campaign`);
      expect(report['errors']).toEqual(['no error', 'no error', 'no error', 'no error', 'no error']); // the last: a second Dispose
      expect(tokens.map((token) => token.campaignId)).toEqual(['cmp_first', 'cmp_second', 'cmp_closed', 'cmp_disposed']);
      expect(mostInFlight).toBe(1);
      expect(report['openedUrls']).toEqual([expect.stringMatching(/^https:\/\/view\.example\/webview\?campaign=cmp_second&ott=ott_2#code_verifier=[A-Za-z0-9_-]{43}$/)]);
    } finally {
      await new Promise((resolve) => standIn.close(resolve));
    }
  }, 60_000);
});
