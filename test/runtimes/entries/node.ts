// Node: the stories' app on node:http through the package's own bridge (`toNodeHandler`, which gives the relay the
// socket's address), as the README mounts the relay.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStoryApp, type ServerSdk, type StoryConfig } from '../story-app.js';

export function start(sdk: ServerSdk, toNodeHandler: typeof import('../../../adapters/node/index.js').toNodeHandler): void {
  const { port, ...config } = JSON.parse(process.argv[2] ?? '{}') as StoryConfig & { port: number };
  const app = createStoryApp(sdk, config);
  const server = http.createServer(toNodeHandler(app));
  server.listen(port, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
}
