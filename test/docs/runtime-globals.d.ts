/**
 * Bun's and Deno's globals, as far as the guides' blocks marked `<!-- snippet: bun -->` or `<!-- snippet: deno -->`
 * use them: stand-ins for what a Bun project has from bun-types (`Bun.env`, `Bun.serve`, `Server.requestIP`) and a
 * Deno project from Deno's own lib (`Deno.env.get`, `Deno.serve`, `ServeHandlerInfo.remoteAddr`), with their shapes.
 */
export {};

declare global {
  /** bun-types' `Server`, as far as the guides use it (`fetch(request, server)` is handed it). */
  interface BunServer {
    requestIP(request: Request): { address: string; port: number } | null;
  }
  const Bun: {
    env: Record<string, string | undefined>;
    serve(options: { port?: number; fetch(request: Request, server: BunServer): Response | Promise<Response> }): BunServer;
  };
  const Deno: {
    env: { get(name: string): string | undefined };
    serve(options: { port?: number }, handler: (request: Request, info: { remoteAddr: { hostname: string; port: number } }) => Response | Promise<Response>): unknown;
  };
}
