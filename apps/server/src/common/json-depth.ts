/** JSON nested deeper than this is refused before anything walks it recursively. */
export const MAX_JSON_DEPTH = 128;

export const tooDeepMessage = `JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * True when a parsed JSON value nests deeper than `limit`. V8's JSON.parse is not recursive,
 * so the body parser runs this right after it, before any recursive walker (converters,
 * JSON.stringify, zod) sees the value. An explicit stack, no recursion; the cost is per
 * object or array (a few dozen in a chat body), not per byte of text, about 2 µs for 6 kB.
 */
export function jsonTooDeep(root: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (root === null || typeof root !== 'object') return false;
  const nodes: object[] = [root];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth > limit) return true;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v: unknown = node[i];
        if (v !== null && typeof v === 'object') nodes.push(v), depths.push(depth + 1);
      }
    } else {
      for (const key in node) {
        const v = node[key];
        if (v !== null && typeof v === 'object') nodes.push(v), depths.push(depth + 1);
      }
    }
  }
  return false;
}
