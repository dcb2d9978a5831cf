import type { IncomingMessage, ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

export interface SunoBehaviour {
  /** Tasks end in FAILURE with this reason. */
  failWith?: string;
  /** Submissions answer this HTTP status with an error body. */
  refuse?: number;
}

interface SunoTask {
  task_id: string;
  action: 'MUSIC' | 'LYRICS';
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  data: unknown;
  key: string;
  polls: number;
}

/**
 * A Suno API proxy: `Authorization: Bearer <key>` with a known key, `{code:"success"}` answers,
 * a continuation must name a clip of this account, tasks progress one step per `/suno/fetch`.
 */
export class FakeSuno extends FakeHttp<SunoBehaviour> {
  readonly tasks = new Map<string, SunoTask>();
  private seq = 0;

  protected keyOf(req: IncomingMessage): string {
    return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
  }

  protected handle(req: Received, res: ServerResponse): void {
    // The result files, public as on Suno's CDN: no key needed.
    const media = /^\/(audio|images)\/(suno-\d+)\.(mp3|jpeg)$/.exec(req.path);
    if (req.method === 'GET' && media && this.tasks.get(media[2])?.status === 'SUCCESS') {
      res.writeHead(200, { 'content-type': media[1] === 'audio' ? 'audio/mpeg' : 'image/jpeg' });
      return void res.end(`${media[1].toUpperCase()}-${media[2]}`);
    }
    if (!this.behaviours.has(req.key)) return sendJson(res, { code: 'error', message: 'invalid api key' }, 401);
    const b = this.behaviour(req.key);
    const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(req.path);
    if (req.method === 'POST' && submit) {
      if (b.refuse) return sendJson(res, { code: 'error', message: 'upstream busy' }, b.refuse);
      const body = req.body ?? {};
      if (submit[1] === 'lyrics' && typeof body.prompt !== 'string') return sendJson(res, { code: 'error', message: 'prompt required' }, 400);
      if (submit[1] === 'music' && !String(body.mv ?? '').startsWith('chirp-')) return sendJson(res, { code: 'error', message: `unknown mv ${body.mv}` }, 400);
      if (body.continue_clip_id && ![...this.tasks.values()].some((t) => t.key === req.key && JSON.stringify(t.data).includes(body.continue_clip_id))) {
        return sendJson(res, { code: 'error', message: 'clip not found' }, 400);
      }
      const id = `suno-${++this.seq}`;
      const action = submit[1] === 'music' ? 'MUSIC' : 'LYRICS';
      this.tasks.set(id, { task_id: id, action, status: 'SUBMITTED', fail_reason: '', submit_time: Date.now() / 1000, start_time: 0, finish_time: 0, progress: '0%', data: null, key: req.key, polls: 0 });
      return sendJson(res, { code: 'success', message: '', data: id });
    }
    if (req.method === 'POST' && req.path === '/suno/fetch') {
      const ids: unknown = req.body?.ids;
      if (!Array.isArray(ids)) return sendJson(res, { code: 'error', message: 'ids required' }, 400);
      const found = ids.map((id) => this.tasks.get(String(id))).filter((t): t is SunoTask => !!t && t.key === req.key);
      for (const t of found) this.advance(t, b);
      return sendJson(res, { code: 'success', message: '', data: found.map(({ key: _k, polls: _p, ...t }) => t) });
    }
    sendJson(res, { code: 'error', message: `unknown path ${req.path}` }, 404);
  }

  private advance(t: SunoTask, b: SunoBehaviour): void {
    if (t.status === 'SUCCESS' || t.status === 'FAILURE') return;
    if (++t.polls === 1) {
      Object.assign(t, { status: 'IN_PROGRESS', progress: '40%', start_time: Math.floor(Date.now() / 1000) });
      return;
    }
    if (b.failWith) {
      Object.assign(t, { status: 'FAILURE', fail_reason: b.failWith });
      return;
    }
    t.data =
      t.action === 'MUSIC'
        ? [{ id: `clip-${t.task_id}`, audio_url: `${this.url}/audio/${t.task_id}.mp3`, image_url: `${this.url}/images/${t.task_id}.jpeg`, title: 'Song', user_id: 'suno-account-7', metadata: { tags: 'pop', user_id: 'x' } }]
        : { text: 'la la la', title: 'Lyrics', status: 'complete' };
    Object.assign(t, { status: 'SUCCESS', progress: '100%', finish_time: Math.floor(Date.now() / 1000) });
  }
}
