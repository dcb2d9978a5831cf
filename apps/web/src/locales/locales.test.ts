import { describe, expect, it } from 'vitest';

type Tree = { [k: string]: string | Tree };
const files = import.meta.glob<{ default: Tree }>(['./*.json', '../features/*/locales/*.json'], { eager: true });
const LANGS = ['zh_CN', 'zh_HK', 'en_US', 'ja_JP'] as const;

/**
 * Words written the same way in two languages, reviewed by hand: "namespace:key" → the pairs that may match.
 * Everything else must differ between every pair of locales.
 */
const SAME_ALLOWED: Record<string, string[]> = {
  'common:chrome.console': ['zh_CN=zh_HK'],
  // The server's field path and its own reason, in every language.
  'server-text:error.invalid_parameter': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'common:menu.analytics': ['zh_CN=ja_JP'],
  'common:menu.channel': ['zh_CN=zh_HK'],
  'common:menu.token': ['zh_CN=zh_HK'],
  'common:menu.model_price': ['zh_CN=zh_HK'],
  'common:menu.unknownVersion': ['zh_CN=zh_HK'],
  'common:chrome.setting': ['zh_HK=ja_JP'],
  'common:menuGroup.setting': ['zh_HK=ja_JP'],
  'common:common.cancel': ['zh_CN=zh_HK'],
  'common:common.submit': ['zh_CN=zh_HK'],
  'common:limits.none': ['zh_CN=zh_HK'],
  'common:limits.model': ['zh_CN=zh_HK'],
  'common:limits.remove': ['zh_CN=zh_HK'],
  'task:planPaid': ['zh_CN=zh_HK'],
  'audit-log:actions.sync': ['zh_CN=zh_HK'],
  'audit-log:kinds.channel': ['zh_CN=zh_HK'],
  'audit-log:kinds.token': ['zh_CN=zh_HK'],
  'auth:strength1': ['zh_CN=zh_HK'],
  'auth:strength2': ['zh_CN=zh_HK'],
  'auth:strength3': ['zh_CN=zh_HK'],
  'not-found:back': ['zh_CN=zh_HK'],
  'user-group:yes': ['zh_CN=zh_HK'],
  'user-group:no': ['zh_CN=zh_HK'],
  'user-group:field.ratio': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'analytics:byModel': ['zh_CN=zh_HK'],
  'analytics:byChannel': ['zh_CN=zh_HK'],
  'dashboard:availableModels': ['zh_CN=zh_HK'],
  'dashboard:collapse': ['zh_CN=zh_HK'],
  'dashboard:todayTokens': ['zh_CN=zh_HK'],
  'dashboard:usagePercent': ['zh_CN=zh_HK'],
  'dashboard:limit': ['zh_CN=zh_HK'],
  'dashboard:table.date': ['zh_CN=zh_HK'],
  'dashboard:used': ['zh_CN=zh_HK'],
  'dashboard:beat.0': ['zh_CN=zh_HK'],
  'dashboard:beat.1': ['zh_CN=zh_HK'],
  'log:col.channel': ['zh_CN=zh_HK'],
  'log:col.token': ['zh_CN=zh_HK'],
  'log:col.model': ['zh_CN=zh_HK'],
  'log:type.all': ['zh_CN=zh_HK'],
  'log:type.topup': ['zh_CN=zh_HK'],
  'log:type.manage': ['zh_CN=zh_HK'],
  'log:type.unknown': ['zh_CN=zh_HK'],
  'log:extra.reasoning_tokens': ['zh_CN=zh_HK'],
  'log:firstResponse': ['zh_CN=zh_HK'],
  'log:perCall': ['zh_CN=zh_HK'],
  'log:channelId': ['zh_CN=zh_HK'],
  'playground:token': ['zh_CN=zh_HK'],
  'playground:model': ['zh_CN=zh_HK'],
  'playground:stop': ['zh_CN=zh_HK'],
  'playground:stopped': ['zh_CN=zh_HK'],
  'playground:thinking': ['zh_CN=zh_HK'],
  'profile:submit': ['zh_CN=zh_HK'],
  'profile:wechat': ['zh_CN=zh_HK', 'en_US=ja_JP'],
  'profile:lark': ['en_US=ja_JP'],
  'profile:cancel': ['zh_CN=zh_HK'],
  // Billing and task screens: brand names, IDs and words Chinese and Japanese share.
  'telegram:webhook': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'telegram:id': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'telegram:description': ['zh_CN=zh_HK'],
  'telegram:actions': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'payment:title': ['zh_CN=zh_HK'],
  'payment:all': ['zh_CN=zh_HK'],
  'payment:id': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'payment:uuid': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'payment:types.epay': ['zh_CN=zh_HK'],
  'payment:types.alipay': ['en_US=ja_JP'],
  'payment:types.wxpay': ['zh_CN=zh_HK', 'en_US=ja_JP'],
  'payment:types.stripe': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'payment:types.unknown': ['zh_CN=zh_HK'],
  'payment:payTypes.alipay': ['en_US=ja_JP'],
  'payment:payTypes.wxpay': ['zh_CN=zh_HK', 'en_US=ja_JP'],
  'payment:payTypes.qqpay': ['en_US=ja_JP'],
  'payment:payTypes.jdpay': ['en_US=ja_JP'],
  'payment:payTypes.paypal': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'payment:payTypes.usdt': ['zh_CN=zh_HK', 'zh_CN=en_US', 'zh_CN=ja_JP', 'zh_HK=en_US', 'zh_HK=ja_JP', 'en_US=ja_JP'],
  'payment:sort': ['zh_CN=zh_HK'],
  'payment:sortOf': ['zh_CN=zh_HK'],
  'payment:actions': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'payment:amount': ['zh_HK=ja_JP'],
  'payment:status.pending': ['zh_CN=zh_HK'],
  'payment:status.success': ['zh_CN=zh_HK'],
  'payment:status.failed': ['zh_HK=ja_JP'],
  'payment:status.unknown': ['zh_CN=zh_HK'],
  'topup:title': ['zh_CN=zh_HK'],
  'topup:badge': ['zh_CN=zh_HK'],
  'topup:topUp': ['zh_CN=zh_HK'],
  'topup:payTitle': ['zh_CN=zh_HK'],
  'topup:paid': ['zh_CN=zh_HK'],
  'topup:submitting': ['zh_CN=zh_HK'],
  'midjourney:channel': ['zh_CN=zh_HK'],
  'midjourney:seconds': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'midjourney:show': ['zh_CN=zh_HK'],
  'midjourney:channelId': ['zh_CN=zh_HK'],
  'midjourney:action.UPSCALE': ['zh_CN=zh_HK'],
  'midjourney:action.REROLL': ['zh_CN=zh_HK'],
  'midjourney:action.PAN': ['zh_CN=zh_HK'],
  'midjourney:code.notSubmitted': ['zh_CN=zh_HK'],
  'midjourney:code.submitted': ['zh_CN=zh_HK'],
  'midjourney:statusName.FAILURE': ['zh_HK=ja_JP'],
  'midjourney:statusName.SUCCESS': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'task:channel': ['zh_CN=zh_HK'],
  'task:platform': ['zh_CN=zh_HK'],
  'task:seconds': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'task:channelId': ['zh_CN=zh_HK'],
  'task:lyrics': ['zh_HK=ja_JP'],
  'task:status.SUBMITTED': ['zh_CN=zh_HK'],
  'task:status.FAILURE': ['zh_HK=ja_JP'],
  'task:status.SUCCESS': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'task:status.UNKNOWN': ['zh_CN=zh_HK'],
  'task:result': ['zh_HK=ja_JP'], // 結果: the same word in Traditional Chinese and Japanese
  'log:fastMode': ['zh_CN=zh_HK'], // 快速模式: written alike in Simplified and Traditional Chinese
  'pricing:service.fast': ['zh_CN=zh_HK'],
  // Monthly bills: time units Chinese and Japanese write alike.
  'invoice:duration.millis': ['zh_CN=zh_HK'],
  'invoice:duration.seconds': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'invoice:duration.minutes': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  // Console polish, jobs: words Chinese (and Japanese) write alike, reviewed.
  'common:quickSearch.kind.channel': ['zh_CN=zh_HK'],
  'common:quickSearch.kind.token': ['zh_CN=zh_HK'],
  'common:dateRange.today': ['zh_HK=ja_JP'],
  'common:dateRange.month': ['zh_CN=zh_HK'],
  'analytics:otherGroup': ['zh_CN=zh_HK'],
  'system-info:jobs.ok': ['zh_CN=zh_HK', 'zh_CN=ja_JP', 'zh_HK=ja_JP'],
  'system-info:jobs.error': ['zh_HK=ja_JP'],
  'system-info:jobs.next': ['zh_CN=zh_HK'],
  'token:newKey.label': ['zh_CN=zh_HK'],
  'token:newKey.done': ['zh_CN=zh_HK'],
};

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    if (typeof v === 'string') out[prefix + k] = v;
    else Object.assign(out, flatten(v, `${prefix}${k}.`));
  }
  return out;
}

/** An English singular form (`x_one`) beside its base key `x` (the plural, with {{count}}): the other locales need none. */
function singular(lng: string, key: string, table: Record<string, string>): boolean {
  return lng === 'en_US' && key.endsWith('_one') && key.slice(0, -4) in table && table[key].includes('{{count}}');
}

/** namespace → language → flat table */
const namespaces = new Map<string, Map<string, Record<string, string>>>();
for (const [path, mod] of Object.entries(files)) {
  const m = path.match(/(?:features\/([^/]+)\/locales|^\.)\/([^/]+)\.json$/)!;
  const ns = m[1] ?? 'common';
  if (!namespaces.has(ns)) namespaces.set(ns, new Map());
  namespaces.get(ns)!.set(m[2], flatten(mod.default));
}

describe('locales', () => {
  it('found the common and feature namespaces', () => {
    expect([...namespaces.keys()]).toEqual(expect.arrayContaining(['common', 'auth', 'home', 'not-found', 'playground', 'jump']));
  });

  for (const [ns, byLang] of namespaces) {
    describe(ns, () => {
      it('has all four languages with the same keys, none empty', () => {
        expect([...byLang.keys()].sort()).toEqual([...LANGS].sort());
        const keys = Object.keys(byLang.get('zh_CN')!).sort();
        for (const lng of LANGS) {
          expect(Object.keys(byLang.get(lng)!).filter((k) => !singular(lng, k, byLang.get(lng)!)).sort(), `${ns} ${lng}`).toEqual(keys);
          for (const k of keys) expect(byLang.get(lng)![k].trim(), `${ns}:${k} ${lng}`).not.toBe('');
        }
      });

      it('is translated: no value copied from another language unless reviewed', () => {
        for (const k of Object.keys(byLang.get('zh_CN')!)) {
          const allowed = SAME_ALLOWED[`${ns}:${k}`] ?? [];
          for (let i = 0; i < LANGS.length; i++) {
            for (let j = i + 1; j < LANGS.length; j++) {
              const [a, b] = [LANGS[i], LANGS[j]];
              if (allowed.includes(`${a}=${b}`)) continue;
              expect(byLang.get(a)![k], `${ns}:${k} ${a} equals ${b}`).not.toBe(byLang.get(b)![k]);
            }
          }
          expect(/[\u3400-\u9fff]/.test(byLang.get('en_US')![k]), `${ns}:${k} en_US contains CJK`).toBe(false);
        }
      });

      it('keeps the same placeholders in every language', () => {
        const vars = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();
        const zh = byLang.get('zh_CN')!;
        for (const lng of LANGS) for (const k of Object.keys(zh)) expect(vars(byLang.get(lng)![k]), `${ns}:${k} ${lng}`).toEqual(vars(zh[k]));
      });
    });
  }

  it('allows only reviewed pairs that really are equal (no stale exceptions)', () => {
    for (const [key, pairs] of Object.entries(SAME_ALLOWED)) {
      const [ns, k] = key.split(':');
      const byLang = namespaces.get(ns)!;
      for (const p of pairs) {
        const [a, b] = p.split('=');
        expect(byLang.get(a)![k], key).toBe(byLang.get(b)![k]);
      }
    }
  });
});
