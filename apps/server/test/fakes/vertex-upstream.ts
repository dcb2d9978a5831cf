import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, sleep, writePaced, type Received } from './fake-http.js';
import { checkClaudeRequest, claudeAnswer, claudeErrorBody, claudeEvents, claudeMessage, type ClaudeBehaviour } from './claude-answer.js';
import { googleErrorBody, type GeminiBehaviour } from './gemini-answer.js';
import { answerGemini, behaviourFailure } from './gemini-upstream.js';
import { claudeSse } from './anthropic-upstream.js';

/** How the fake answers a service account's requests, Claude and Gemini alike. */
export type VertexBehaviour = ClaudeBehaviour & GeminiBehaviour;

interface Trusted {
  publicKey: string;
  project: string;
}

const MODEL_PATH = /^\/v1(?:beta1)?\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;

/**
 * A fake of Vertex AI on 127.0.0.1: an OAuth token endpoint (`POST /token`,
 * JWT bearer grant) that checks the assertion's RS256 signature with the
 * public key registered for its issuer, then Gemini (`publishers/google`,
 * generateContent / streamGenerateContent) and Claude (`publishers/anthropic`,
 * rawPredict / streamRawPredict) routes that require an issued Bearer token
 * for the service account's own project. Behaviours are chosen by client_email.
 */
export class FakeVertex extends FakeHttp<VertexBehaviour> {
  private trusted = new Map<string, Trusted>();
  private tokens = new Map<string, { email: string; expiresAt: number }>();
  /** Lifetime of issued tokens, as `expires_in`. */
  tokenTtlSeconds = 3599;
  /** Token exchanges answered with a token. */
  tokensIssued = 0;
  /** Google's publisher models as the list shows them (Gemini beside other families). */
  /** The most models one page holds, whatever `pageSize` asks. */
  maxPageSize = 100;
  catalogue = ['gemini-2.5-pro', 'gemini-2.5-flash', 'imagen-4.0-generate-001', 'gemini-2.0-flash-001', 'text-embedding-005', 'gemini-2.0-flash-lite-001'];

  /** Trusts a service account's public key for its project. */
  trust(clientEmail: string, publicKeyPem: string, project: string): void {
    this.trusted.set(clientEmail, { publicKey: publicKeyPem, project });
  }

  /** A fresh service-account key file (RSA pair generated here, public half trusted) whose token_uri is this fake. */
  serviceAccount(clientEmail: string, project: string): string {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.trust(clientEmail, publicKey.export({ type: 'spki', format: 'pem' }).toString(), project);
    return JSON.stringify({
      type: 'service_account',
      project_id: project,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: clientEmail,
      client_id: '100000000000000000001',
      token_uri: `${this.url}/token`,
      universe_domain: 'googleapis.com',
    });
  }

  protected keyOf(req: IncomingMessage): string {
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    return this.tokens.get(token)?.email ?? '';
  }

  protected async handle(req: Received, res: ServerResponse) {
    if (req.path === '/token' && req.method === 'POST') return this.token(req, res);
    const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
    const issued = this.tokens.get(token);
    if (!issued || issued.expiresAt < Date.now()) {
      return sendJson(res, googleErrorBody(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'), 401);
    }
    if (req.method === 'GET' && req.path === '/v1beta1/publishers/google/models') return this.publisherModels(req, res, issued.email);
    const match = MODEL_PATH.exec(req.path);
    if (req.method !== 'POST' || !match) return sendJson(res, googleErrorBody(404, `Not found: ${req.method} ${req.path}`), 404);
    const [, project, location, publisher, model, action] = match;
    const resource = `projects/${project}/locations/${location}/publishers/${publisher}/models/${model}`;
    if (this.trusted.get(issued.email)?.project !== project) {
      return sendJson(res, googleErrorBody(403, `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`), 403);
    }
    const family = publisher === 'google' ? 'gemini' : 'claude';
    if (!model.startsWith(family)) return sendJson(res, googleErrorBody(404, `Publisher Model \`${resource}\` not found.`), 404);
    const b = this.behaviour(issued.email);
    if (b.delayMs) await sleep(b.delayMs);
    if (family === 'gemini') {
      if (behaviourFailure(res, b)) return;
      if (typeof req.body !== 'object') return sendJson(res, googleErrorBody(400, 'Invalid JSON payload received.'), 400);
      return answerGemini(res, action, model, req, b);
    }
    return this.claude(req, res, action, model, b);
  }

  /** Model Garden's ListPublisherModels for Google's models, paged by `pageSize` and an opaque `pageToken`. */
  private publisherModels(req: Received, res: ServerResponse, email: string) {
    const quotaProject = req.headers['x-goog-user-project'];
    if (quotaProject !== undefined && quotaProject !== this.trusted.get(email)?.project) {
      return sendJson(res, googleErrorBody(403, `Caller does not have required permission to use project ${String(quotaProject)}.`), 403);
    }
    const size = Math.min(Number(req.query.get('pageSize') ?? 100) || 100, this.maxPageSize);
    const token = req.query.get('pageToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
    if (!Number.isInteger(start) || start < 0) return sendJson(res, googleErrorBody(400, 'Invalid page token.'), 400);
    const page = this.catalogue.slice(start, start + size).map((id) => ({ name: `publishers/google/models/${id}`, versionId: '001', openSourceCategory: 'PROPRIETARY', launchStage: 'GA' }));
    const next = start + size < this.catalogue.length ? Buffer.from(String(start + size)).toString('base64url') : undefined;
    sendJson(res, { publisherModels: page, ...(next ? { nextPageToken: next } : {}) });
  }

  /** Claude on Vertex answers in Anthropic's own shapes (errors included). */
  private async claude(req: Received, res: ServerResponse, action: string, model: string, b: VertexBehaviour) {
    if (b.status && b.status >= 400) return sendJson(res, b.errorBody ?? claudeErrorBody(b.status), b.status);
    if (action !== 'rawPredict' && action !== 'streamRawPredict') return sendJson(res, googleErrorBody(400, `Unsupported action ${action}`), 400);
    const invalid = checkClaudeRequest(req.body, 'vertex');
    if (invalid) return sendJson(res, claudeErrorBody(invalid.status, invalid.message), invalid.status);
    const answer = claudeAnswer(req.body, b);
    const name = model.replace(/@.*/, '');
    if (action === 'rawPredict') {
      if (req.body.stream) return sendJson(res, claudeErrorBody(400, 'stream: rawPredict does not stream; use streamRawPredict'), 400);
      return sendJson(res, claudeMessage(name, answer));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    if (await writePaced(res, claudeSse(claudeEvents(name, answer, b)), b)) res.end();
  }

  /** The JWT bearer grant: the assertion must be signed by the issuer's key, for this endpoint, within an hour. */
  private token(req: Received, res: ServerResponse) {
    const fail = (description: string) => sendJson(res, { error: 'invalid_grant', error_description: description }, 400);
    const form = new URLSearchParams(req.raw);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return sendJson(res, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' }, 400);
    const [head, body, sig] = (form.get('assertion') ?? '').split('.');
    let header: any;
    let claims: any;
    try {
      header = JSON.parse(Buffer.from(head, 'base64url').toString());
      claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    } catch {
      return fail('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    }
    const trusted = this.trusted.get(claims.iss);
    if (header.alg !== 'RS256' || !trusted) return fail('Invalid JWT Signature.');
    if (!verify('sha256', Buffer.from(`${head}.${body}`), trusted.publicKey, Buffer.from(sig ?? '', 'base64url'))) return fail('Invalid JWT Signature.');
    const now = Date.now() / 1000;
    if (claims.aud !== `${this.url}/token` || !String(claims.scope ?? '').split(' ').includes('https://www.googleapis.com/auth/cloud-platform')) return fail('Invalid JWT: audience or scope');
    if (claims.exp - claims.iat > 3600 || claims.iat > now + 300 || claims.exp < now) {
      return fail('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    }
    const accessToken = `ya29.fake-${randomBytes(12).toString('hex')}`;
    this.tokens.set(accessToken, { email: claims.iss, expiresAt: Date.now() + this.tokenTtlSeconds * 1000 });
    this.tokensIssued++;
    sendJson(res, { access_token: accessToken, expires_in: this.tokenTtlSeconds, token_type: 'Bearer' });
  }
}
