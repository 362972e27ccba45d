#!/usr/bin/env node
/**
 * `game-campaign-emulator [--port N] [--host H] [--webhook-host H]... [--json]`: runs the emulator until SIGINT/SIGTERM.
 * `--webhook-host` (repeatable) names a host besides loopback that webhook receivers may be at (`webhookHosts`).
 * Prints a short banner (URL, client key, server key), or with `--json` exactly one line
 * `{"url","clientKey","serverKey"}` for scripts. `--port 0` picks a free port.
 */
import { parseArgs } from 'node:util';
import { loopbackForWildcard } from './host.js';
import { DEFAULT_PORT, startEmulator } from './index.js';
import { isLoopback } from './middleware/access.js';

const USAGE = 'Usage: game-campaign-emulator [--port N] [--host H] [--webhook-host H]... [--json]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: String(DEFAULT_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'webhook-host': { type: 'string', multiple: true, default: [] },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  // Decimal digits only: Number() reads '' and ' ' as 0 (a random port), '1e3' as 1000 and '0x50' as 80.
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port <= 65535)) throw new TypeError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(values.port)}`);
  const emulator = await startEmulator({ port, host: values.host, webhookHosts: values['webhook-host'] });
  // Signal handlers before the address is printed: a script that reads the line and at once sends SIGTERM stops it
  // cleanly (exit 0). Installed after the print, a signal arriving in between killed the process (no exit code).
  const stop = () => {
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (values.json) {
    console.log(JSON.stringify({ url: emulator.url, clientKey: emulator.clientKey, serverKey: emulator.serverKey }));
  } else {
    console.log(
      [
        `Game Campaign emulator listening on ${emulator.url}${loopbackForWildcard(values.host) === values.host ? '' : ` (every interface: --host ${values.host})`}`,
        `  Client key: ${emulator.clientKey}`,
        `  Server key: ${emulator.serverKey}`,
        `  Web view:   ${emulator.url}/webview`,
        `  Webhooks:   receivers on ${['loopback', ...ownHost(values.host), ...values['webhook-host']].join(', ')} (--webhook-host H for more)`,
        `  State:      ${emulator.url}/_emulator/state`,
        'Press Ctrl+C to stop.',
      ].join('\n'),
    );
  }
}

/** The emulator's own host as receivers may name it, when it is neither a wildcard nor loopback. */
function ownHost(host: string): string[] {
  return loopbackForWildcard(host) === host && host.toLowerCase() !== 'localhost' && !isLoopback(host) ? [host] : [];
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  // A second emulator (another CI job, one left running) on the port: say how to get a free one.
  if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') console.error('The port is taken (an emulator still running?): stop it, or pass --port 0 for a free port (--json prints it).');
  console.error(USAGE);
  process.exit(2);
});
