import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RelayState } from '../../pipeline/relay-state.js';
import { mjError, modeOf } from './mapping.js';
import { submitMidjourney } from './submit.js';
import { fetchTask, image, imageSeed, listByCondition, notify } from './reads.js';

const SUBMIT_KINDS = new Set(['imagine', 'change', 'simple-change', 'describe', 'blend', 'shorten', 'action', 'modal', 'upload-discord-images']);

const modeParam = (req: FastifyRequest) => modeOf((req.params as { mode?: string }).mode);

/** Every route of relay.md §1.1 under `/mj` and `/<mj-fast|mj-turbo|mj-relax>/mj`. */
export function registerMidjourney(app: FastifyInstance, state: RelayState): void {
  for (const prefix of ['', '/:mode']) {
    app.post(`${prefix}/mj/submit/:kind`, (req, reply) => {
      const mode = modeParam(req);
      const kind = (req.params as { kind: string }).kind;
      if (!SUBMIT_KINDS.has(kind)) throw mjError(404, `未知的提交类型 ${kind}`);
      return submitMidjourney(state, req, reply, kind, mode, `/mj/submit/${kind}`);
    });
    app.post(`${prefix}/mj/insight-face/swap`, (req, reply) => submitMidjourney(state, req, reply, 'swap', modeParam(req), '/mj/insight-face/swap'));
    app.post(`${prefix}/mj/notify`, (req) => (modeParam(req), notify(state, req)));
    app.get(`${prefix}/mj/task/:id/fetch`, (req) => (modeParam(req), fetchTask(state, req)));
    app.get(`${prefix}/mj/task/:id/image-seed`, (req, reply) => (modeParam(req), imageSeed(state, req, reply)));
    app.post(`${prefix}/mj/task/list-by-condition`, (req) => (modeParam(req), listByCondition(state, req)));
    app.get(`${prefix}/mj/image/:id`, (req, reply) => (modeParam(req), image(state, req, reply)));
  }
}
