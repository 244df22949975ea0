// The parse worker's entry: reads and parses the files the main thread sends, and posts back their
// facts. It owns no store; the main thread resolves imports and writes (see parserPool.ts).
import { parentPort } from 'node:worker_threads';
import { parseFile, type ParseRequest } from './parseFile';

interface Job {
  id: number;
  req: ParseRequest;
}

const port = parentPort;
port?.on('message', (job: Job) => {
  parseFile(job.req).then(
    (outcome) => port.postMessage({ id: job.id, outcome }),
    (err: unknown) => port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
