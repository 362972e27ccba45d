// Deno: the stories' app on Deno.serve, `handler(request, info)` handed on whole: the relay reads the client's address
// from `info.remoteAddr` itself (no clientAddress option).
import { createStoryApp, type ServerSdk, type StoryConfig } from '../story-app.js';

declare const Deno: {
  args: string[];
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

export function start(sdk: ServerSdk): void {
  const { port, ...config } = JSON.parse(Deno.args[0] ?? '{}') as StoryConfig & { port: number };
  const app = createStoryApp(sdk, config);
  Deno.serve({ hostname: '127.0.0.1', port, onListen: (address) => console.log(`listening ${address.port}`) }, (request, info) => app.fetch(request, info));
}
