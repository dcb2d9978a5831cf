// A node of two worker processes around src/cluster.ts alone (no gateway): each worker serves
// GET /<topic> on its own port by asking the node that topic. Run: node --import tsx cluster-node.ts <dir> <port>
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { Config } from '../../src/config/env.js';
import { answerForNode, askNode, isPrimary, runPrimary, workerIndex } from '../../src/cluster.js';
import type { HubError } from '../../src/common/errors.js';

const [dir, port] = [process.argv[2], Number(process.argv[3])];

if (isPrimary()) {
  await runPrimary({ WORKERS: '2', PORT: port, DATA_DIR: dir, SESSION_SECRET: 'cluster-node-secret' } as unknown as Config, 2);
} else {
  const index = workerIndex()!;
  answerForNode('echo', (payload) => payload);
  answerForNode('hang', () => new Promise(() => undefined));
  const server = createServer((req, res) => {
    askNode(req.url!.slice(1), `from ${index}`).then(
      (value) => res.end(JSON.stringify({ value })),
      (e: HubError) => res.end(JSON.stringify({ status: e.status, code: e.code, message: e.message })),
    );
  });
  const listen = () => server.listen(port + index, '127.0.0.1', () => process.stdout.write(`worker ${index} listens, pid ${process.pid}\n`));
  // Worker 0 started again waits for SIGUSR2 before it listens, so the test sees the node without it.
  const again = index === 0 && existsSync(join(dir, 'worker0'));
  if (index === 0) writeFileSync(join(dir, 'worker0'), '');
  if (!again) listen();
  else {
    process.once('SIGUSR2', listen);
    process.stdout.write(`worker 0 held ${process.pid}\n`);
  }
}
