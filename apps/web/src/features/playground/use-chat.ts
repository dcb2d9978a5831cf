import { useCallback, useRef, useState } from 'react';
import { withKeyPrefix } from '@one-hub/contract';
import { createSseReader, errorMessage, readChunk } from './sse';

export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
  reasoning?: string;
  error?: string;
  /** The answer was stopped by the user before it finished. */
  stopped?: boolean;
}

/** The conversation without failed turns: a question whose answer failed is left out with its error. */
export function answeredTurns(messages: ChatMessage[]): ChatMessage[] {
  return messages.filter((m, i) => !m.error && !(m.role === 'user' && messages[i + 1]?.error));
}

/** A streaming chat through the gateway's `/v1/chat/completions` with one of the user's token keys. */
export function useChat() {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);

  const patchLast = (patch: (m: ChatMessage) => ChatMessage) =>
    setMessages((list) => (list.length ? [...list.slice(0, -1), patch(list[list.length - 1])] : list));

  const send = useCallback(
    async (text: string, opts: { key: string; model: string }) => {
      const turn = { role: 'user' as const, content: text };
      const history = [...answeredTurns(messages), turn];
      // failed turns stay on screen, each with its one error bubble; they are just not sent again
      setMessages([...messages, turn, { role: 'assistant', content: '' }]);
      setBusy(true);
      const controller = new AbortController();
      abort.current = controller;
      try {
        const res = await fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${withKeyPrefix(opts.key)}` },
          body: JSON.stringify({ model: opts.model, stream: true, messages: history.map(({ role, content }) => ({ role, content })) }),
          signal: controller.signal,
        });
        if (!res.ok || !res.body) {
          const message = errorMessage(res.status, await res.text());
          patchLast((m) => ({ ...m, error: message }));
          return;
        }
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const sse = createSseReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const data of sse.push(value)) {
            const d = readChunk(data);
            if (d.error) patchLast((m) => ({ ...m, error: d.error }));
            if (d.content || d.reasoning) patchLast((m) => ({ ...m, content: m.content + d.content, reasoning: (m.reasoning ?? '') + d.reasoning }));
          }
        }
      } catch (e) {
        if (controller.signal.aborted) patchLast((m) => ({ ...m, stopped: true }));
        else patchLast((m) => ({ ...m, error: e instanceof Error ? e.message : String(e) }));
      } finally {
        abort.current = null;
        setBusy(false);
      }
    },
    [messages],
  );

  const stop = useCallback(() => abort.current?.abort(), []);
  const clear = useCallback(() => {
    abort.current?.abort();
    setMessages([]);
  }, []);
  return { messages, busy, send, stop, clear };
}
