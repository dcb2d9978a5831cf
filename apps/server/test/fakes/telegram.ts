import type { ServerResponse } from 'node:http';
import { FakeHttp, sendJson, type Received } from './fake-http.js';

/** A Telegram Bot API update as the fake hands it out (update_id assigned on feed). */
export type Update = Record<string, any> & { update_id: number };

export interface SentMessage {
  message_id: number;
  chat_id: number;
  text: string;
  parse_mode?: string;
}

interface Fault {
  method: string;
  status: number;
  description: string;
  retry_after?: number;
  /** Answered this many more times. */
  times: number;
}

/**
 * A Bot API server (https://core.telegram.org/bots/api) for one bot token: the methods the hub
 * calls, checked like Telegram checks them (token, webhook/polling conflict, secret token
 * charset, command names, and the markup of MarkdownV2, Markdown and HTML messages).
 */
export class FakeTelegram extends FakeHttp<object> {
  readonly sent: SentMessage[] = [];
  readonly deleted: Array<{ chat_id: number; message_id: number }> = [];
  commands: Array<{ command: string; description: string }> = [];
  webhook: { url: string; secret_token?: string } | null = null;
  private updates: Update[] = [];
  private nextUpdateId = 1;
  private nextMessageId = 100;
  private waiters: Array<() => void> = [];
  private faults: Fault[] = [];
  private existing = new Set<string>();

  constructor(readonly token: string, readonly username = 'one_hub_test_bot') {
    super();
  }

  /** Queues an update for getUpdates; a message's message_id is registered so it can be deleted. */
  feed(update: Record<string, any>): Update {
    const full = this.stamp(update);
    this.updates.push(full);
    for (const wake of this.waiters.splice(0)) wake();
    return full;
  }

  /** Numbers an update as Telegram would before delivering it (by getUpdates or by webhook). */
  stamp(update: Record<string, any>): Update {
    const full = { ...update, update_id: this.nextUpdateId++ } as Update;
    const m = full.message;
    if (m?.message_id && m.chat?.id) this.existing.add(`${m.chat.id}:${m.message_id}`);
    return full;
  }

  /** A private-chat text message from a user, as Telegram sends it. */
  message(text: string, from: { id: number; language_code?: string }, chat?: { id: number; type: string }): Record<string, any> {
    const message_id = this.nextMessageId++;
    const entities = text.startsWith('/') ? [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0].length }] : undefined;
    return {
      message: {
        message_id,
        date: Math.floor(Date.now() / 1000),
        from: { id: from.id, is_bot: false, first_name: `u${from.id}`, language_code: from.language_code },
        chat: chat ?? { id: from.id, type: 'private', first_name: `u${from.id}` },
        text,
        entities,
      },
    };
  }

  /** The next `times` calls of `method` fail with this status (429 carries retry_after in parameters; 0 drops the connection). */
  failNext(method: string, status: number, description: string, times = 1, retry_after?: number): void {
    this.faults.push({ method, status, description, times, retry_after });
  }

  /** Injected failures not answered yet. */
  faultsLeft(): number {
    return this.faults.reduce((n, f) => n + f.times, 0);
  }

  /** Resolves once a message to the chat matches; the wait ends with the test's timeout otherwise. */
  async waitForMessage(chatId: number, test: (m: SentMessage) => boolean = () => true, from = 0): Promise<SentMessage> {
    for (;;) {
      const found = this.sent.slice(from).find((m) => m.chat_id === chatId && test(m));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Calls of one Bot API method. */
  calls(method: string): Received[] {
    return this.received.filter((r) => r.path.endsWith(`/${method}`));
  }

  protected keyOf(): string {
    return '';
  }

  protected async handle(req: Received, res: ServerResponse): Promise<void> {
    const match = req.path.match(/^\/bot([^/]+)\/([A-Za-z]+)$/);
    if (!match) return sendJson(res, { ok: false, error_code: 404, description: 'Not Found' }, 404);
    if (match[1] !== this.token) return sendJson(res, { ok: false, error_code: 401, description: 'Unauthorized' }, 401);
    const method = match[2];
    const fault = this.faults.find((f) => f.method === method && f.times > 0);
    if (fault) {
      fault.times--;
      if (fault.status === 0) return void res.socket?.destroy(); // a network failure, no answer at all
      const parameters = fault.retry_after === undefined ? undefined : { retry_after: fault.retry_after };
      return sendJson(res, { ok: false, error_code: fault.status, description: fault.description, parameters }, fault.status);
    }
    const params = { ...Object.fromEntries(req.query), ...(typeof req.body === 'object' ? req.body : {}) };
    try {
      const result = await this.call(method, params);
      sendJson(res, { ok: true, result });
    } catch (e) {
      if (!(e instanceof BadRequest)) throw e;
      sendJson(res, { ok: false, error_code: e.status, description: e.message }, e.status);
    }
  }

  private async call(method: string, p: Record<string, any>): Promise<unknown> {
    switch (method) {
      case 'getMe':
        return { id: 7000001, is_bot: true, first_name: 'One Hub', username: this.username, can_join_groups: true };
      case 'getUpdates':
        return this.getUpdates(p);
      case 'sendMessage':
        return this.sendMessage(p);
      case 'deleteMessage': {
        const key = `${p.chat_id}:${p.message_id}`;
        if (!this.existing.delete(key)) throw new BadRequest('Bad Request: message to delete not found');
        this.deleted.push({ chat_id: Number(p.chat_id), message_id: Number(p.message_id) });
        return true;
      }
      case 'setWebhook': {
        const url = String(p.url ?? '');
        if (url && !url.startsWith('https://')) throw new BadRequest('Bad Request: bad webhook: An HTTPS URL must be provided for webhook');
        if (p.secret_token !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(String(p.secret_token))) {
          throw new BadRequest('Bad Request: secret token contains unallowed characters');
        }
        this.webhook = url ? { url, secret_token: p.secret_token } : null;
        return true;
      }
      case 'deleteWebhook':
        this.webhook = null;
        return true;
      case 'setMyCommands': {
        const list = (typeof p.commands === 'string' ? JSON.parse(p.commands) : p.commands) as Array<{ command: string; description: string }>;
        if (!Array.isArray(list) || list.length > 100) throw new BadRequest('Bad Request: BOT_COMMANDS_TOO_MUCH');
        for (const c of list) {
          if (!/^[a-z0-9_]{1,32}$/.test(c.command ?? '')) throw new BadRequest('Bad Request: BOT_COMMAND_INVALID');
          if (!c.description || c.description.length > 256) throw new BadRequest('Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
        }
        this.commands = list.map((c) => ({ command: c.command, description: c.description }));
        return true;
      }
      default:
        throw new BadRequest('Not Found', 404);
    }
  }

  private async getUpdates(p: Record<string, any>): Promise<Update[]> {
    if (this.webhook) throw new BadRequest("Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first", 409);
    const offset = Number(p.offset ?? 0);
    if (offset > 0) this.updates = this.updates.filter((u) => u.update_id >= offset); // confirmed ones are forgotten
    const limit = Math.min(Math.max(Number(p.limit ?? 100), 1), 100);
    const ready = () => this.updates.filter((u) => u.update_id >= offset).slice(0, limit);
    if (!ready().length && Number(p.timeout ?? 0) > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Number(p.timeout) * 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return ready();
  }

  private sendMessage(p: Record<string, any>): SentMessage & { chat: object; date: number } {
    const text = String(p.text ?? '');
    if (!p.chat_id) throw new BadRequest('Bad Request: chat_id is empty');
    if (!text.trim()) throw new BadRequest('Bad Request: message text is empty');
    if (text.length > 4096) throw new BadRequest('Bad Request: message is too long');
    if (p.parse_mode !== undefined) checkMarkup(text, String(p.parse_mode));
    const message = { message_id: this.nextMessageId++, chat_id: Number(p.chat_id), text, parse_mode: p.parse_mode };
    this.sent.push(message);
    return { ...message, chat: { id: Number(p.chat_id), type: 'private' }, date: Math.floor(Date.now() / 1000) };
  }
}

class BadRequest extends Error {
  constructor(message: string, readonly status = 400) {
    super(message);
  }
}

const cantParse = (why: string) => new BadRequest(`Bad Request: can't parse entities: ${why}`);

/** Throws Telegram's "can't parse entities" error for markup it would refuse. */
export function checkMarkup(text: string, mode: string): void {
  const m = mode.toLowerCase();
  if (m === 'markdownv2') return checkMarkdownV2(text);
  if (m === 'markdown') return checkMarkdown(text);
  if (m === 'html') return checkHtml(text);
  throw new BadRequest('Bad Request: unsupported parse_mode');
}

function checkMarkdownV2(text: string): void {
  const open: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (open.at(-1) === '`') {
      if (c === '`') open.pop();
      continue;
    }
    const mark = c === '_' && text[i + 1] === '_' ? '__' : c === '|' && text[i + 1] === '|' ? '||' : c;
    if (['*', '_', '__', '~', '||', '`'].includes(mark)) {
      if (open.at(-1) === mark) open.pop();
      else open.push(mark);
      i += mark.length - 1;
    } else if (c === '[') open.push('[');
    else if (c === ']' && open.at(-1) === '[') {
      open.pop();
      if (text[i + 1] === '(') {
        const end = text.indexOf(')', i);
        if (end < 0) throw cantParse(`Can't find end of a URL at byte offset ${i + 1}`);
        i = end;
      }
    } else if (c === '>' && (i === 0 || text[i - 1] === '\n')) continue;
    else if ('_*[]()~`>#+-=|{}.!'.includes(c)) throw cantParse(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
  }
  if (open.length) throw cantParse(`Can't find end of ${open.at(-1)} entity`);
}

function checkMarkdown(text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    const mark = c === '`' && text.startsWith('```', i) ? '```' : c;
    if (['*', '_', '`', '```', '['].includes(mark)) {
      const close = mark === '[' ? ']' : mark;
      const end = text.indexOf(close, i + mark.length);
      if (end < 0) throw cantParse(`Can't find end of the entity starting at byte offset ${i}`);
      i = end + close.length - 1;
    }
  }
}

const HTML_TAGS = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'span', 'tg-spoiler', 'a', 'code', 'pre', 'blockquote', 'tg-emoji']);

function checkHtml(text: string): void {
  const open: string[] = [];
  const tag = /<(\/?)([a-z-]*)[^>]*>/gy;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '&') {
      if (!/^&(lt|gt|amp|quot|#\d+|#x[0-9a-f]+);/i.test(text.slice(i))) throw cantParse(`Can't find end of the entity starting at byte offset ${i}`);
      continue;
    }
    if (text[i] !== '<') continue;
    tag.lastIndex = i;
    const m = tag.exec(text);
    if (!m || !HTML_TAGS.has(m[2])) throw cantParse(`Unsupported start tag "${m?.[2] ?? ''}" at byte offset ${i}`);
    if (m[1]) {
      if (open.pop() !== m[2]) throw cantParse(`Unexpected end tag at byte offset ${i}`);
    } else open.push(m[2]);
    i = tag.lastIndex - 1;
  }
  if (open.length) throw cantParse(`Can't find end tag corresponding to start tag "${open.at(-1)}"`);
}
