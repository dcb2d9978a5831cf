/**
 * The process-local key/value map behind SharedStore without Redis (and while Redis is down), and
 * the one the cluster primary keeps for its workers (node-store.ts). Synchronous: nothing awaits.
 */
export class MemoryStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  get(key: string): string | null {
    const hit = this.entries.get(key);
    if (!hit) return null;
    if (hit.expiresAt && hit.expiresAt < Date.now()) {
      this.entries.delete(key);
      return null;
    }
    return hit.value;
  }

  set(key: string, value: string, ttlSeconds?: number): void {
    this.entries.set(key, { value, expiresAt: ttlSeconds ? Date.now() + ttlSeconds * 1000 : 0 });
    if (this.entries.size > 100_000) this.sweep();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [k, v] of this.entries) if (v.expiresAt && v.expiresAt < now) this.entries.delete(k);
  }

  getMany(keys: string[]): Array<string | null> {
    return keys.map((k) => this.get(k));
  }

  setMany(entries: Array<[key: string, value: string]>, ttlSeconds: number): void {
    for (const [k, v] of entries) this.set(k, v, ttlSeconds);
  }

  del(key: string): void {
    this.entries.delete(key);
  }

  incrWindow(key: string, windowSeconds: number, by = 1): number {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && !(hit.expiresAt && hit.expiresAt < now)) {
      const count = Number(hit.value) + by;
      hit.value = String(count); // in place: the window keeps its first expiry
      if (!hit.expiresAt) hit.expiresAt = now + windowSeconds * 1000;
      return count;
    }
    this.entries.set(key, { value: String(by), expiresAt: now + windowSeconds * 1000 });
    return by;
  }

  incrBy(key: string, delta: number, ttlSeconds: number): number {
    const value = Number(this.get(key) ?? 0) + delta;
    this.set(key, String(value), ttlSeconds);
    return value;
  }

  takeFloor(key: string, by: number): number {
    const value = Number(this.get(key) ?? 0);
    const taken = Math.max(0, Math.min(value, by));
    if (taken > 0) this.entries.get(key)!.value = String(value - taken); // in place: the expiry stays
    return taken;
  }

  setIfAbsent(key: string, value: string, ttlSeconds: number): boolean {
    if (this.get(key) !== null) return false;
    this.set(key, value, ttlSeconds);
    return true;
  }
}

const OPS = ['get', 'set', 'getMany', 'setMany', 'del', 'incrWindow', 'incrBy', 'takeFloor', 'setIfAbsent'] as const;
/** The operations a worker may ask of the primary's map. */
export type MemoryOp = (typeof OPS)[number];
export const MEMORY_OPS: ReadonlySet<string> = new Set<string>(OPS);
