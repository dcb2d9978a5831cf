import type { FastifyInstance } from 'fastify';
import { HubError } from '../common/errors.js';
import { jsonTooDeep, tooDeepMessage } from '../common/json-depth.js';

/** The console's JSON parser: Fastify's own (prototype-poisoning checks kept), then the nesting limit. */
export function registerConsoleJsonParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    parse(req, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (jsonTooDeep(value)) return done(new HubError(400, tooDeepMessage, { code: 'json_too_deep' }), undefined);
      done(null, value);
    });
  });
}
