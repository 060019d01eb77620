// main: the gateway process (see run-gateway.ts).
import { runGateway } from './run-gateway.ts';

await runGateway();
