// A Cloudflare Worker (workerd): the stories' app as the Worker's fetch, its settings from bindings (`env`, never
// `process.env` at module scope), the client's address from `CF-Connecting-IP` (README's example; Cloudflare's edge
// sets it, the test sets it here). Its `ctx` is handed on as the runtime's context (the webhook receiver's waitUntil).
import { createStoryApp, type ServerSdk, type StoryConfig } from '../story-app.js';

export function worker(sdk: ServerSdk): { fetch(request: Request, env: StoryConfig, ctx: unknown): Promise<Response> } {
  let app: ReturnType<typeof createStoryApp> | undefined;
  return {
    fetch(request, env, ctx) {
      app ??= createStoryApp(sdk, env, (incoming) => incoming.headers.get('cf-connecting-ip') ?? undefined);
      return app.fetch(request, ctx);
    },
  };
}
