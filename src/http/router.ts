// The HTTP router (find-my-way). Every route is registered with its own pattern as its store,
// so a request can be labelled by the route it matched (metrics) without the raw URL, which
// would carry check UUIDs and keys into label values.
import type { IncomingMessage } from 'node:http';
import Router from 'find-my-way';

export type HttpRouter = Router.Instance<Router.HTTPVersion.V1>;

export function createRouter(options: Router.Config<Router.HTTPVersion.V1>): HttpRouter {
  const router = Router(options);
  const on = router.on.bind(router) as (...args: unknown[]) => void;
  // get(), post(), all() ... all go through on().
  (router as { on: unknown }).on = (method: unknown, path: string, opts: unknown, handler?: unknown, store?: unknown) =>
    typeof opts === 'function' ? on(method, path, {}, opts, handler ?? { route: path }) : on(method, path, opts, handler, store ?? { route: path });
  return router;
}

/** The pattern of the route `req` matches ("unmatched" when none does). */
export function routeOf(router: HttpRouter, req: IncomingMessage): string {
  const found = router.find(req.method as Router.HTTPMethod, req.url ?? '/');
  return (found?.store as { route?: string } | null)?.route ?? 'unmatched';
}
