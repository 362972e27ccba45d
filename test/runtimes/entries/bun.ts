// Bun: the stories' app on Bun.serve; the client's address from `server.requestIP(request)` (README's example).
import { createStoryApp, type ServerSdk, type StoryConfig } from '../story-app.js';

declare const Bun: {
  argv: string[];
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { port: number; requestIP(request: Request): { address: string } | null };
};

export function start(sdk: ServerSdk): void {
  const { port, ...config } = JSON.parse(Bun.argv[2] ?? '{}') as StoryConfig & { port: number };
  const app = createStoryApp(sdk, config, (request) => server.requestIP(request)?.address);
  const server = Bun.serve({ hostname: '127.0.0.1', port, fetch: (request) => app.fetch(request) });
  console.log(`listening ${server.port}`);
}
