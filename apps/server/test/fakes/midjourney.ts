import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/** How one channel secret's account answers. */
export interface MjBehaviour {
  /** Submit codes answered in turn (then 1): 1 ok, 21 exists, 22 queued, 3 no account, 4 validation, 24 banned. */
  codes?: number[];
  /** Fast mode has no account: FAST submissions answer code 3 (Midjourney-Proxy's "no available account"). */
  noFast?: boolean;
  /** Tasks end in FAILURE with this reason instead of SUCCESS. */
  failWith?: string;
  /** Polls a task needs to finish (default 2: IN_PROGRESS 50%, then the end). */
  pollsToFinish?: number;
  /** Answer list-by-condition with a 500. */
  brokenList?: boolean;
}

export interface FakeMjTask {
  id: string;
  action: string;
  prompt: string;
  mode: string;
  status: string;
  progress: string;
  imageUrl: string;
  failReason: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  buttons: unknown[];
  properties: Record<string, unknown>;
  polls: number;
  key: string;
  notifyHook?: string;
}

const NEEDS_PROMPT = new Set(['imagine', 'shorten']);

/**
 * A Midjourney-Proxy server: `mj-api-secret` must be one of the known secrets, submissions
 * are checked like the proxy checks them, tasks progress one step per list-by-condition
 * poll, and `notify()` posts a task to the hook it was submitted with.
 */
export class FakeMidjourney extends FakeHttp<MjBehaviour> {
  readonly tasks = new Map<string, FakeMjTask>();
  private seq = 0;

  protected keyOf(req: IncomingMessage): string {
    return String(req.headers['mj-api-secret'] ?? '');
  }

  private task(t: FakeMjTask) {
    const { polls: _p, key: _k, notifyHook: _n, mode: _m, ...rest } = t;
    return rest;
  }

  protected handle(req: Received, res: ServerResponse): void {
    if (req.path.startsWith('/images/')) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from(`PNG-${req.path.slice(8)}`));
      return;
    }
    if (!this.behaviours.has(req.key)) return sendJson(res, { code: 401, description: 'unauthorized' }, 401);
    const b = this.behaviour(req.key);
    const submit = /^\/mj\/(submit\/[\w-]+|insight-face\/swap)$/.exec(req.path);
    if (req.method === 'POST' && submit) return this.submit(req, res, b, submit[1].replace('submit/', ''));
    if (req.method === 'POST' && req.path === '/mj/task/list-by-condition') {
      if (b.brokenList) return sendJson(res, { error: 'database locked' }, 500);
      const ids: unknown = req.body?.ids;
      if (!Array.isArray(ids)) return sendJson(res, { code: 4, description: 'ids required' }, 400);
      const found = ids.map((id) => this.tasks.get(String(id))).filter((t): t is FakeMjTask => !!t && t.key === req.key);
      for (const t of found) this.advance(t, b);
      return sendJson(res, found.map((t) => this.task(t)));
    }
    const seed = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(req.path);
    if (req.method === 'GET' && seed) {
      const t = this.tasks.get(seed[1]);
      return t && t.key === req.key ? sendJson(res, { code: 1, description: 'success', result: `seed-${t.id}` }) : sendJson(res, { code: 3, description: 'not found' }, 404);
    }
    sendJson(res, { code: 4, description: `unknown path ${req.path}` }, 404);
  }

  private submit(req: Received, res: ServerResponse, b: MjBehaviour, kind: string): void {
    const body = req.body;
    if (!body || typeof body !== 'object') return sendJson(res, { code: 4, description: 'body must be JSON' }, 400);
    const modes: unknown = body.accountFilter?.modes;
    if (!Array.isArray(modes) || modes.length !== 1 || !['FAST', 'TURBO', 'RELAX'].includes(modes[0])) return sendJson(res, { code: 4, description: 'accountFilter.modes invalid' }, 400);
    if (NEEDS_PROMPT.has(kind) && typeof body.prompt !== 'string') return sendJson(res, { code: 4, description: 'prompt不能为空' }, 400);
    if (b.noFast && modes[0] === 'FAST') return sendJson(res, { code: 3, description: '无可用的账号实例' });
    const code = b.codes?.length ? b.codes.shift()! : 1;
    if (kind === 'upload-discord-images') return sendJson(res, { code: 1, description: '提交成功', result: (body.base64Array ?? []).map((_: unknown, i: number) => `${this.url}/images/up-${i}.png`) });
    if (![1, 21, 22].includes(code)) return sendJson(res, { code, description: code === 24 ? '可能包含敏感词' : code === 3 ? '无可用的账号实例' : '参数错误' });
    const id = `${Date.now()}${String(++this.seq).padStart(4, '0')}`;
    const task: FakeMjTask = {
      id,
      action: kind.toUpperCase(),
      prompt: body.prompt ?? body.content ?? '',
      mode: modes[0],
      status: code === 21 ? 'SUCCESS' : 'SUBMITTED',
      progress: code === 21 ? '100%' : '0%',
      imageUrl: code === 21 ? `${this.url}/images/${id}.png` : '',
      failReason: '',
      submitTime: Date.now(),
      startTime: 0,
      finishTime: 0,
      buttons: [],
      properties: { finalPrompt: body.prompt ?? '' },
      polls: 0,
      key: req.key,
      notifyHook: body.notifyHook,
    };
    this.tasks.set(id, task);
    const properties = code === 21 ? { status: 'SUCCESS', imageUrl: task.imageUrl } : code === 22 ? { numberOfQueues: 1 } : {};
    sendJson(res, { code, description: code === 22 ? '排队中' : code === 21 ? '任务已存在' : '提交成功', result: id, properties });
  }

  /** One poll of a task: SUBMITTED → IN_PROGRESS 50% → SUCCESS (or FAILURE). */
  private advance(t: FakeMjTask, b: MjBehaviour): void {
    if (t.progress === '100%' || t.status === 'FAILURE') return;
    t.polls++;
    if (t.polls < (b.pollsToFinish ?? 2)) {
      t.status = 'IN_PROGRESS';
      t.progress = '50%';
      t.startTime ||= Date.now();
      return;
    }
    this.finish(t, b);
  }

  finish(t: FakeMjTask, b: MjBehaviour = this.behaviour(t.key)): void {
    t.finishTime = Date.now();
    if (b.failWith) {
      t.status = 'FAILURE';
      t.failReason = b.failWith;
      return;
    }
    t.status = 'SUCCESS';
    t.progress = '100%';
    t.imageUrl = `${this.url}/images/${t.id}.png`;
    t.buttons = [1, 2, 3, 4].map((i) => ({ customId: `MJ::JOB::upsample::${i}::hash${t.id}`, emoji: '', label: `U${i}`, type: 2, style: 2 }));
  }

  /** Posts the task to the notify hook it was submitted with, as the proxy does on every change. */
  async notify(id: string, hook?: string): Promise<Response> {
    const t = this.tasks.get(id)!;
    return fetch(hook ?? t.notifyHook!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(this.task(t)) });
  }
}
