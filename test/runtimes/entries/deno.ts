// Deno: the stories' app on Deno.serve; the client's address from the handler's `info.remoteAddr` (README's example),
// kept per request for the relay's `clientAddress`.
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
  const addresses = new WeakMap<Request, string>();
  const app = createStoryApp(sdk, config, (request) => addresses.get(request));
  Deno.serve({ hostname: '127.0.0.1', port, onListen: (address) => console.log(`listening ${address.port}`) }, (request, info) => {
    addresses.set(request, info.remoteAddr.hostname);
    return app.fetch(request);
  });
}
