import type { Frame, StreamMapper } from '../types.js';

const dataOf = (f: Frame) => (typeof f === 'string' ? f : f.data);
const eventOf = (f: Frame) => (typeof f === 'string' ? undefined : f.event || undefined);

/**
 * Feeds what `inner` emits (a provider stream turned into OpenAI chunks) into `outer`
 * (the conversion to the door's format). Usage and the end marker come from the provider side.
 */
export function chainMappers(inner: StreamMapper, outer: StreamMapper): StreamMapper {
  // The door's frames never inherit the provider's SSE event names (a plain string frame would).
  const unnamed = (f: Frame): Frame => (typeof f === 'string' ? { event: '', data: f } : f);
  const through = (frames: Frame[]) => frames.flatMap((f) => outer.onEvent(dataOf(f), eventOf(f)).map(unnamed));
  return {
    onEvent: (data, event) => through(inner.onEvent(data, event)),
    usage: () => inner.usage() ?? outer.usage(),
    text: () => inner.text(),
    finish: () => [...through(inner.finish()), ...outer.finish().map(unnamed)],
    ended: () => (inner.ended ? inner.ended() : true),
    fail: outer.fail ? (message) => outer.fail!(message).map(unnamed) : undefined,
  };
}
