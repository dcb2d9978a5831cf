import type { IncomingHttpHeaders } from 'node:http';
import { CaptureRules, type CaptureRule } from '@one-hub/contract';
import type { AppContext } from '../../../app-context.js';
import { nowSeconds } from '../../../common/time.js';
import { parseJsonOr } from '../../../common/json.js';
import { deleteCapturesBefore, insertCapture } from '../../../db/repos/log-captures.js';

const SECRET_KEY = /key|secret|token|password|authorization|cookie|credential/i;
const SECRET_HEADER = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'set-cookie']);
/** Always redacted: bearer credentials and the usual API key shapes. */
const BUILT_IN = [/Bearer\s+[^\s"',]+/gi, /\bsk-[A-Za-z0-9_-]{8,}/g, /\bAIza[0-9A-Za-z_-]{20,}/g];
const REDACTED = '[redacted]';
/** Usage counts (`prompt_tokens`, Gemini's `promptTokenCount`) are named like secrets but are not. */
const TOKEN_COUNT = /tokens$|tokencount$/i;
/** Bytes a stream tap keeps beyond the size cap, so redaction sees a secret cut by the cap whole. */
const TAP_MARGIN = 1024;

/** The text a streamed answer sent its client, in order, up to a limit; `ending` says how it stopped when it broke off. */
export class StreamTap {
  private parts: string[] = [];
  private bytes = 0;
  /** More was sent than the limit: the rest is not kept. */
  cut = false;
  ending?: string;
  constructor(
    private readonly limit: number,
    /** Gemini's JSON array of chunks rather than SSE. */
    readonly jsonArray = false,
  ) {}

  add(text: string): void {
    if (this.cut || !text) return;
    const size = Buffer.byteLength(text);
    if (this.bytes + size <= this.limit) {
      this.parts.push(text);
      this.bytes += size;
      return;
    }
    this.parts.push(Buffer.from(text).subarray(0, this.limit - this.bytes).toString('utf8'));
    this.bytes = this.limit;
    this.cut = true;
  }

  text(): string {
    return this.parts.join('');
  }
}

/**
 * The opt-in capture of relay bodies (LogCaptureRules, set by an admin per user, token or
 * channel with an expiry). The rules are read once per option change into `active`; a
 * request pays one comparison when no rule is live, and nothing is captured.
 */
export class Capture {
  private rules: CaptureRule[] = [];
  private patterns: RegExp[] = [];
  /** The latest expiry among the rules: capture is off once the clock passes it. */
  private liveUntil = 0;
  private lastPrune = 0;

  constructor(private readonly ctx: AppContext) {
    this.reload();
    ctx.options.onChange((key) => {
      if (key === '*' || key.startsWith('LogCapture')) this.reload();
    });
  }

  private reload(): void {
    const parsed = CaptureRules.safeParse(parseJsonOr<unknown>(this.ctx.options.get('LogCaptureRules'), []));
    this.rules = parsed.success ? parsed.data : [];
    this.liveUntil = this.rules.reduce((m, r) => Math.max(m, r.until), 0);
    this.patterns = [];
    for (const line of this.ctx.options.get('LogCaptureRedactPatterns').split('\n')) {
      if (!line.trim()) continue;
      try {
        this.patterns.push(new RegExp(line.trim(), 'g'));
      } catch {
        this.ctx.log.warn({ pattern: line }, 'LogCaptureRedactPatterns: not a regular expression, ignored');
      }
    }
  }

  /** True when some rule is live: the only check a request pays. */
  get active(): boolean {
    return this.liveUntil > 0 && this.liveUntil > nowSeconds();
  }

  /** Whether an attempt of this user and token on this channel is captured now. */
  matches(userId: number, tokenId: number, channelId: number): boolean {
    if (!this.active) return false;
    const now = nowSeconds();
    return this.rules.some((r) => r.until > now && r.id === (r.kind === 'user' ? userId : r.kind === 'token' ? tokenId : channelId));
  }

  /** Removes secrets from a text: built-in credential shapes, then the configured patterns; cut to the size cap (`cut`: it was cut before). */
  redactText(text: string, cut = false): string {
    let out = text;
    for (const p of [...BUILT_IN, ...this.patterns]) out = out.replace(p, REDACTED);
    const max = this.ctx.options.get('LogCaptureMaxBytes');
    if (!cut && Buffer.byteLength(out) <= max) return out;
    return `${Buffer.from(out).subarray(0, max).toString('utf8')}… [cut at ${max} bytes]`;
  }

  /**
   * A collector for what a captured stream sends its client (only made when `matches`): it keeps
   * the size cap plus a margin, so a secret that straddles the cap is still whole when redacted.
   */
  streamTap(jsonArray = false): StreamTap {
    return new StreamTap(this.ctx.options.get('LogCaptureMaxBytes') + TAP_MARGIN, jsonArray);
  }

  /** A stream as captured: each chunk whose JSON has secret-named fields is blanked like a body (others stay as sent), then the text rules, then how it ended. */
  private stream(tap: StreamTap): string {
    const text = this.redactText(tap.jsonArray ? blankArrayChunks(tap.text()) : blankDataLines(tap.text()), tap.cut);
    return tap.ending ? `${text}\n[${tap.ending}]` : text;
  }

  /**
   * A body as captured: JSON has every secret-named field blanked before the text rules run.
   * Whitespace before JSON text is kept: a heartbeat's keep-alives the client received ahead of the answer.
   */
  body(value: unknown): string {
    if (value === undefined || value === null) return '';
    if (Buffer.isBuffer(value)) return this.redactText(`[${value.length} bytes of multipart/binary body]`);
    if (typeof value === 'string') {
      const json = parseJsonOr<unknown>(value, undefined);
      if (json === undefined || typeof json !== 'object') return this.redactText(value);
      return this.redactText(leadingSpace(value) + JSON.stringify(blank(json)));
    }
    return this.redactText(JSON.stringify(blank(value)));
  }

  headers(h: IncomingHttpHeaders): string {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(h)) out[k] = SECRET_HEADER.has(k.toLowerCase()) ? REDACTED : v;
    return this.redactText(JSON.stringify(out));
  }

  /** Writes one captured attempt (only called when `matches`); old captures are pruned at most hourly. */
  record(row: { requestId: string; userId: number; tokenId: number; channelId: number; status: number; headers: IncomingHttpHeaders; request: unknown; response: unknown | StreamTap }): void {
    const write = async () => {
      await insertCapture(this.ctx.db, {
        created_at: nowSeconds(),
        request_id: row.requestId.slice(0, 64),
        user_id: row.userId,
        token_id: row.tokenId,
        channel_id: row.channelId,
        status: row.status,
        request_headers: this.headers(row.headers),
        request_body: this.body(row.request),
        response_body: row.response instanceof StreamTap ? this.stream(row.response) : this.body(row.response),
        stream: row.response instanceof StreamTap ? 1 : 0,
      });
      await this.prune();
    };
    write().catch((error) => this.ctx.log.warn({ err: error }, 'capture not written'));
  }

  async prune(force = false): Promise<number> {
    if (!force && Date.now() - this.lastPrune < 3_600_000) return 0;
    this.lastPrune = Date.now();
    return deleteCapturesBefore(this.ctx.db, nowSeconds() - this.ctx.options.get('LogCaptureRetentionDays') * 86_400);
  }
}

/** The whitespace JSON text starts with (JSON.parse skips it). */
function leadingSpace(text: string): string {
  return text.slice(0, text.length - text.trimStart().length);
}

/** One stream chunk's JSON, kept exactly as sent unless it has a secret-named field, then blanked like a body. */
function blankChunk(data: string): string {
  const json = parseJsonOr<unknown>(data, undefined);
  if (json === undefined || typeof json !== 'object') return data;
  const blanked = JSON.stringify(blank(json));
  return blanked === JSON.stringify(json) ? data : blanked;
}

/** SSE: the JSON of each `data:` line. */
function blankDataLines(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.startsWith('data: ') ? `data: ${blankChunk(line.slice(6))}` : line))
    .join('\n');
}

/**
 * Gemini's JSON array as the stream responder writes it: keep-alive newlines, `[`, chunks joined
 * by `,\r\n`, `]`. Each chunk is blanked on its own, so an array cut short is still blanked.
 */
function blankArrayChunks(text: string): string {
  const parts = text.split(',\r\n');
  return parts
    .map((part, i) => {
      const start = i === 0 ? part.indexOf('[') + 1 : 0;
      const end = i === parts.length - 1 && part.endsWith(']') ? part.length - 1 : part.length;
      return part.slice(0, start) + blankChunk(part.slice(start, end)) + part.slice(end);
    })
    .join(',\r\n');
}

function blank(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(blank);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number') && !TOKEN_COUNT.test(k) ? REDACTED : blank(v);
  return out;
}
