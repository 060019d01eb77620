// The shape of a campus route handler, shared by the record routes (routes.ts) and the extra
// routes (extras.ts): it gets the parsed request and the viewer and returns Slate's JSON.
import type { IncomingMessage } from 'node:http';
import type { Viewer } from '../../src/campus/viewer.ts';

export type Handler = (ctx: { req: IncomingMessage; query: URLSearchParams; viewer: Viewer; params: Record<string, string | undefined> }) => Promise<unknown>;

export type Route = (methods: Array<'GET' | 'POST'>, path: string, handler: Handler) => void;
