import { createApertiumAdapter } from '../../server/adapter.js';
import { PipelinePool } from '../../server/pipelines.js';

/**
 * A stand-in server for the server-death test: it starts a warm pipeline the way a node does (one batch
 * through it), prints the running pipelines as one JSON line, and then waits to be killed.
 */
const pipelines = new PipelinePool({ perPair: 1 });
// Nothing listens at this APy: the batch can only have gone through the pipeline.
await createApertiumAdapter({ url: 'http://127.0.0.1:9', pipelines, pipelineFrom: 0 }).translate({ source: 'en', target: 'es', segments: ['The red car.'], format: 'text' });
process.stdout.write(`${JSON.stringify(pipelines.running())}\n`);
setInterval(() => {}, 60_000);
