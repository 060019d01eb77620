// The gateway as src/server.ts runs it (runGateway), plus the hand-written REST handlers the
// GraphQL benchmark measures its dashboard query against (baseline-routes.ts), in the same process.
import { runGateway } from '../../src/run-gateway.ts';
import { baselineRoutes } from './baseline-routes.ts';

await runGateway({ routes: baselineRoutes });
