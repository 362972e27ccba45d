// Bun: the stories' app on Bun.serve, `fetch(request, server)` handed on whole: the relay reads the client's address
// from `server.requestIP(request)` itself (no clientAddress option).
import { createStoryApp, type ServerSdk, type StoryConfig } from '../story-app.js';

declare const Bun: {
  argv: string[];
  serve(options: { hostname: string; port: number; fetch(request: Request, server: unknown): Promise<Response> }): { port: number };
};

export function start(sdk: ServerSdk): void {
  const { port, ...config } = JSON.parse(Bun.argv[2] ?? '{}') as StoryConfig & { port: number };
  const app = createStoryApp(sdk, config);
  const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: (request, bunServer) => app.fetch(request, bunServer) });
  console.log(`listening ${server.port}`);
}
