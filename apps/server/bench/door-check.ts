/**
 * Micro-benchmark of the per-request input checks: the nesting check of the parsed body and
 * the door schema of a typical 6 kB chat body. Run: npx tsx bench/door-check.ts
 */
import { jsonTooDeep } from '../src/common/json-depth.js';
import { checkDoorBody } from '../src/relay/pipeline/flow/door-body.js';

const turn = (role: string, i: number) => ({ role, content: `Message ${i}: ${'lorem ipsum dolor sit amet, "quoted" \\ text '.repeat(12)}` });
const body = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'system', content: 'You are terse.' }, ...Array.from({ length: 10 }, (_, i) => turn(i % 2 ? 'assistant' : 'user', i))],
  max_tokens: 256,
  temperature: 0.7,
  stream: true,
  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }],
};
const bytes = Buffer.from(JSON.stringify(body));
const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;

function time(name: string, fn: () => void, rounds = 200_000) {
  for (let i = 0; i < 20_000; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) fn();
  const ns = Number(process.hrtime.bigint() - start) / rounds;
  console.log(`${name}: ${(ns / 1000).toFixed(2)} µs per request`);
}

console.log(`body: ${bytes.length} bytes`);
time('nesting check', () => jsonTooDeep(parsed));
time('chat door schema', () => checkDoorBody('chat/completions', parsed));
time('JSON.parse (for scale)', () => JSON.parse(bytes.toString('utf8')), 50_000);
