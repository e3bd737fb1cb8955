import { ApyProcess } from '../../../../plugins/engine-apertium/server/apy-process.js';
import { EngineProcessRegistry } from '../../src/translation/engine-processes.js';

/**
 * A stand-in server for the parent-death test: it starts a managed APy the way the server does
 * (recording it in the data directory given as argv[2]), prints `{pid, port}` as one JSON line,
 * and then waits to be killed.
 */
const apy = await ApyProcess.start({ containers: 1, warm: false, startTimeoutMs: 90_000, processes: new EngineProcessRegistry(process.argv[2]) });
process.stdout.write(`${JSON.stringify({ pid: apy.pid, port: apy.port })}\n`);
setInterval(() => {}, 60_000);
