/** Parses JSON stored in a text column; empty or malformed text yields the fallback. */
export function parseJsonOr<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
