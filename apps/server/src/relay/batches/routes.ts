import type { FastifyInstance } from 'fastify';
import type { RelayState } from '../pipeline/relay-state.js';
import { taskPollers } from '../tasks/registry.js';
import { batchResults, cancelBatch, createBatch, deleteBatch, listBatches, retrieveBatch } from './service.js';

/** Anthropic Message Batches under the Claude door's prefix ('' or '/claude'); errors answer in Anthropic's shape. */
export function registerMessageBatches(app: FastifyInstance, state: RelayState, prefix: string): void {
  // Started with the door: batches left running by the previous process are polled until they end.
  taskPollers(state);
  const base = `${prefix}/v1/messages/batches`;
  app.post(base, (req, reply) => createBatch(state, req, reply));
  app.get(base, (req) => listBatches(state, req));
  app.get(`${base}/:id`, (req) => retrieveBatch(state, req));
  app.get(`${base}/:id/results`, (req, reply) => batchResults(state, req, reply));
  app.post(`${base}/:id/cancel`, (req) => cancelBatch(state, req));
  app.delete(`${base}/:id`, (req) => deleteBatch(state, req));
}
