import { describe, expect, it } from 'vitest';
import { parseStorage, withWorkers } from '../../bench/storage.js';

describe('BENCH_STORAGE', () => {
  it('reads dialect, Redis, node and worker counts of each configuration, in order', () => {
    expect(parseStorage('floor,nginx,sqlite, postgres+redis,mysql+redis,postgres+redis*2,mysql*3,mysql+redis/2,postgres+redis*2/3,sqlite/2')).toEqual([
      { name: 'floor', dialect: 'sqlite', redis: false, nodes: 1, workers: 1, proxy: 'floor' },
      { name: 'nginx', dialect: 'sqlite', redis: false, nodes: 1, workers: 1, proxy: 'nginx' },
      { name: 'sqlite', dialect: 'sqlite', redis: false, nodes: 1, workers: 1, proxy: null },
      { name: 'postgres+redis', dialect: 'postgres', redis: true, nodes: 1, workers: 1, proxy: null },
      { name: 'mysql+redis', dialect: 'mysql', redis: true, nodes: 1, workers: 1, proxy: null },
      { name: 'postgres+redis*2', dialect: 'postgres', redis: true, nodes: 2, workers: 1, proxy: null },
      { name: 'mysql*3', dialect: 'mysql', redis: false, nodes: 3, workers: 1, proxy: null },
      { name: 'mysql+redis/2', dialect: 'mysql', redis: true, nodes: 1, workers: 2, proxy: null },
      { name: 'postgres+redis*2/3', dialect: 'postgres', redis: true, nodes: 2, workers: 3, proxy: null },
      // Whether SQLite can serve several workers is the gateway's to say when it starts.
      { name: 'sqlite/2', dialect: 'sqlite', redis: false, nodes: 1, workers: 2, proxy: null },
    ]);
  });

  it('refuses names it cannot read and several nodes on SQLite', () => {
    expect(() => parseStorage('postgres+memcached')).toThrow(/"postgres\+memcached" is not sqlite, postgres or mysql/);
    expect(() => parseStorage('postgres*0')).toThrow(/is not/);
    expect(() => parseStorage('sqlite*2')).toThrow(/several nodes need a shared database/);
    expect(() => parseStorage('floor+redis')).toThrow(/is not/);
    expect(() => parseStorage('nginx/2')).toThrow(/is not/);
  });
});

describe('BENCH_WORKERS', () => {
  it('runs each gateway configuration once per worker count, the proxies and a written count as given', () => {
    const runs = withWorkers(parseStorage('floor,sqlite,postgres+redis*2,mysql+redis/3,nginx'), [1, 2, 4]);
    expect(runs.map((s) => [s.name, s.workers, s.nodes])).toEqual([
      ['floor', 1, 1],
      ['sqlite', 1, 1],
      ['sqlite/2', 2, 1],
      ['sqlite/4', 4, 1],
      ['postgres+redis*2', 1, 2],
      ['postgres+redis*2/2', 2, 2],
      ['postgres+redis*2/4', 4, 2],
      ['mysql+redis/3', 3, 1],
      ['nginx', 1, 1],
    ]);
  });

  it('leaves the list alone when unset', () => {
    const storages = parseStorage('sqlite,postgres+redis');
    expect(withWorkers(storages, undefined)).toBe(storages);
  });
});
