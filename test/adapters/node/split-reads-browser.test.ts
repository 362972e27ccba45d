/**
 * A portal page calling a game's relay over plain HTTP (`http.createServer(toNodeHandler(relay))`) from another
 * origin, in real Chromium, where each request's start reaches node:http in an earlier read than the rest of its
 * headers (as a browser's headers over 16 KiB cross a real network, a few TCP segments at a time): a request whose
 * headers are over node:http's 16 KiB is read by the page as the relay's 431 with its code and message. Before, that
 * 431 had no CORS headers (the refused bytes, the parser's last read, did not name the path: adapters/node/request-starts.ts)
 * and the browser hid it ("Failed to fetch"). A loopback proxy between the page and the relay makes the split: it hands
 * on each request start's first line, waits until the relay's socket has read it, then hands on the rest.
 */
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { relayOverFakeService } from '../../core/relay/fake-service.js';
import { chromiumAvailable, launchChromium } from '../../helpers/chromium.js';
import { serveGame } from '../../helpers/game-server.js';
import { loginThenOversizedToken } from '../../helpers/oversized-token.js';

/** Resolves once `socket` (the relay's end of a connection) has read `bytes` bytes in all. */
async function readUpTo(socket: () => Socket | undefined, bytes: number): Promise<void> {
  while ((socket()?.bytesRead ?? 0) < bytes) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * A TCP proxy to `port` that splits every chunk that starts a request after its first line: the relay reads the
 * request line alone, then the rest. `accepted` finds the relay's socket of a proxied connection by its peer port.
 */
function splittingProxy(port: number, accepted: Map<number, Socket>): TcpServer {
  return createTcpServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    let forwarded = 0;
    let queue = Promise.resolve();
    const relaySocket = () => accepted.get(upstream.localPort!);
    upstream.on('data', (chunk) => client.write(chunk));
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk: Buffer) => {
      queue = queue.then(async () => {
        const lineEnd = chunk[0]! >= 0x41 && chunk[0]! <= 0x5a ? chunk.indexOf('\r\n') : -1;
        const parts = lineEnd > 0 ? [chunk.subarray(0, lineEnd + 2), chunk.subarray(lineEnd + 2)] : [chunk];
        for (const part of parts) {
          upstream.write(part);
          forwarded += part.length;
          await readUpTo(relaySocket, forwarded);
        }
      });
    });
  });
}

describe.runIf(chromiumAvailable())("the relay's 431 over plain HTTP when the request line came in an earlier read, read by a page of another origin", () => {
  const accepted = new Map<number, Socket>();
  let relayServer: Server;
  let proxy: TcpServer;
  let game: Server;
  let gameOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    ({ server: game, origin: gameOrigin } = await serveGame({ '/': ['text/html', '<!doctype html><title>game</title>'] }, (_req, res) => res.writeHead(404).end()));
    relayServer = createServer(toNodeHandler(relayOverFakeService({ cors: { origins: [gameOrigin] } }).relay));
    // A `connection` listener reads nothing: node:http's parser still reads the socket as it would.
    relayServer.on('connection', (socket: Socket) => accepted.set(socket.remotePort!, socket));
    await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
    proxy = splittingProxy((relayServer.address() as AddressInfo).port, accepted);
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    game?.close();
    proxy?.close();
    relayServer?.closeAllConnections();
    relayServer?.close();
  });

  it('reads a 431 from the relay, with its code and message, after a request answered on the same connection', async () => {
    const page = await browser.context.newPage();
    await page.goto(gameOrigin);
    const answers = await loginThenOversizedToken(page, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/campaign`);
    expect(answers[0]).toMatchObject({ status: 401 });
    expect(answers[1]).toMatchObject({ status: 431, body: { status: 431, code: 'BAD_REQUEST', message: expect.stringContaining('HPE_HEADER_OVERFLOW') } });
    await page.close();
  });
});
