// Runs the test suite's fake OpenAI upstream as its own process for the benchmark.
import { FakeOpenAI } from '../test/fakes/openai-upstream.js';

const fake = new FakeOpenAI();
// The benchmark must not grow memory with recorded requests.
(fake as unknown as { received: { push: () => number } }).received.push = () => 0;
const url = await fake.start();
process.stdout.write(`${url}\n`);
process.on('SIGTERM', () => void fake.close().then(() => process.exit(0)));
