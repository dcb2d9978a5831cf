import { describe, expect, it } from 'vitest';
import { parseStorage } from '../../bench/storage.js';

describe('BENCH_STORAGE', () => {
  it('reads dialect, Redis, node and worker counts of each configuration, in order', () => {
    expect(parseStorage('floor,sqlite, postgres+redis,mysql+redis,postgres+redis*2,mysql*3,mysql+redis/2,postgres+redis*2/3')).toEqual([
      { name: 'floor', dialect: 'sqlite', redis: false, nodes: 1, workers: 1, floor: true },
      { name: 'sqlite', dialect: 'sqlite', redis: false, nodes: 1, workers: 1, floor: false },
      { name: 'postgres+redis', dialect: 'postgres', redis: true, nodes: 1, workers: 1, floor: false },
      { name: 'mysql+redis', dialect: 'mysql', redis: true, nodes: 1, workers: 1, floor: false },
      { name: 'postgres+redis*2', dialect: 'postgres', redis: true, nodes: 2, workers: 1, floor: false },
      { name: 'mysql*3', dialect: 'mysql', redis: false, nodes: 3, workers: 1, floor: false },
      { name: 'mysql+redis/2', dialect: 'mysql', redis: true, nodes: 1, workers: 2, floor: false },
      { name: 'postgres+redis*2/3', dialect: 'postgres', redis: true, nodes: 2, workers: 3, floor: false },
    ]);
  });

  it('refuses names it cannot read, several nodes on SQLite and workers without a database server and Redis', () => {
    expect(() => parseStorage('postgres+memcached')).toThrow(/"postgres\+memcached" is not sqlite, postgres or mysql/);
    expect(() => parseStorage('postgres*0')).toThrow(/is not/);
    expect(() => parseStorage('sqlite*2')).toThrow(/several nodes need a shared database/);
    expect(() => parseStorage('floor+redis')).toThrow(/is not/);
    expect(() => parseStorage('sqlite/2')).toThrow(/worker processes need postgres or mysql with \+redis/);
    expect(() => parseStorage('postgres/2')).toThrow(/worker processes need/);
  });
});
