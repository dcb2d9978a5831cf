import type { Frame, StreamMapper } from '../types.js';

const dataOf = (f: Frame) => (typeof f === 'string' ? f : f.data);
const eventOf = (f: Frame) => (typeof f === 'string' ? undefined : f.event || undefined);

/**
 * Feeds what `inner` emits (a provider stream turned into OpenAI chunks) into `outer`
 * (the conversion to the door's format). Usage and the end marker come from the provider side.
 */
export function chainMappers(inner: StreamMapper, outer: StreamMapper): StreamMapper {
  const through = (frames: Frame[]) => frames.flatMap((f) => outer.onEvent(dataOf(f), eventOf(f)));
  return {
    onEvent: (data, event) => through(inner.onEvent(data, event)),
    usage: () => inner.usage() ?? outer.usage(),
    text: () => inner.text(),
    finish: () => [...through(inner.finish()), ...outer.finish()],
    ended: () => (inner.ended ? inner.ended() : true),
    fail: outer.fail ? (message) => outer.fail!(message) : undefined,
  };
}
