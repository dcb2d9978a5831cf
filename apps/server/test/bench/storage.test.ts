import { describe, expect, it } from 'vitest';
import { parseStorage } from '../../bench/storage.js';

describe('BENCH_STORAGE', () => {
  it('reads dialect, Redis and node count of each configuration, in order', () => {
    expect(parseStorage('floor,sqlite, postgres+redis,mysql+redis,postgres+redis*2,mysql*3')).toEqual([
      { name: 'floor', dialect: 'sqlite', redis: false, nodes: 1, floor: true },
      { name: 'sqlite', dialect: 'sqlite', redis: false, nodes: 1, floor: false },
      { name: 'postgres+redis', dialect: 'postgres', redis: true, nodes: 1, floor: false },
      { name: 'mysql+redis', dialect: 'mysql', redis: true, nodes: 1, floor: false },
      { name: 'postgres+redis*2', dialect: 'postgres', redis: true, nodes: 2, floor: false },
      { name: 'mysql*3', dialect: 'mysql', redis: false, nodes: 3, floor: false },
    ]);
  });

  it('refuses names it cannot read and several nodes on SQLite', () => {
    expect(() => parseStorage('postgres+memcached')).toThrow(/"postgres\+memcached" is not sqlite, postgres or mysql/);
    expect(() => parseStorage('postgres*0')).toThrow(/is not/);
    expect(() => parseStorage('sqlite*2')).toThrow(/several nodes need a shared database/);
    expect(() => parseStorage('floor+redis')).toThrow(/is not/);
  });
});
