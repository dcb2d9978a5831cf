import { randomUUID } from 'node:crypto';

/** Source of ids for generated objects; tests pass a deterministic one. */
export interface IdSource {
  /** A fresh id such as `call_…` or `msg_…` for the given prefix. */
  next(prefix: string): string;
}

export const randomIds: IdSource = {
  next: (prefix) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
};

/** Predictable ids (`call_1`, `msg_2`, …) for tests. */
export function sequentialIds(): IdSource {
  let n = 0;
  return { next: (prefix) => `${prefix}_${++n}` };
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
