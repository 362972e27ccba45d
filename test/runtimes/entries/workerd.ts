// A Cloudflare Worker (workerd): the stories' app as the Worker's fetch, its settings from bindings (`env`, never
// `process.env` at module scope), the client's address from `CF-Connecting-IP` (README's example; Cloudflare's edge
// sets it, the test sets it here).
import { createStoryApp, type ServerSdk, type StoryConfig } from '../story-app.js';

export function worker(sdk: ServerSdk): { fetch(request: Request, env: StoryConfig): Promise<Response> } {
  let app: ReturnType<typeof createStoryApp> | undefined;
  return {
    fetch(request, env) {
      app ??= createStoryApp(sdk, env, (incoming) => incoming.headers.get('cf-connecting-ip') ?? undefined);
      return app.fetch(request);
    },
  };
}
