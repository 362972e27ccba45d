// A game page calling the emulator's Client API from another origin, in real Chromium: an answer node:http's parser
// gives (a 431 for a request line and headers over 16 KiB) now carries the API's CORS headers (emulator/http-errors.ts
// `corsHeadersFor`), so the page reads the 431 and its error body; before, the browser hid it ("Failed to fetch").
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { serveGame } from '../helpers/game-server.js';

describe.runIf(chromiumAvailable())('the emulator\'s raw error answers, read by a page of another origin', () => {
  let emulator: RunningEmulator;
  let game: Server;
  let gameOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    ({ server: game, origin: gameOrigin } = await serveGame({ '/': ['text/html', '<!doctype html><title>game</title>'] }, (_req, res) => res.writeHead(404).end()));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    game?.close();
    await emulator?.close();
  });

  it('reads a 431 from the Client API, with its code and message', async () => {
    const page = await browser.context.newPage();
    await page.goto(gameOrigin);
    expect(new URL(page.url()).origin).not.toBe(new URL(emulator.url).origin);
    const answer = await page.evaluate(
      async ([url, key]) => {
        try {
          // authorization is one of the headers the API's preflight allows; 20,000 characters pass the 16 KiB limit.
          const response = await fetch(`${url}/v1/client/creators/LUNA7`, { headers: { authorization: `Bearer ${key}${'x'.repeat(20_000)}` } });
          return { status: response.status, body: await response.json() };
        } catch (error) {
          return { error: String(error) };
        }
      },
      [emulator.url, emulator.clientKey] as const,
    );
    expect(answer).toMatchObject({ status: 431, body: { status: 431, code: 'BAD_REQUEST', message: expect.stringContaining('HPE_HEADER_OVERFLOW') } });
    await page.close();
  });
});
