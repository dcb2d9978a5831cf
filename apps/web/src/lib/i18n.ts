import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { FALLBACK_LANGUAGE, LANGUAGES, normalizeLanguage } from './language';
import { readString, STORAGE } from './storage';

type Loader = () => Promise<{ default: Record<string, unknown> }>;
const common = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*.json');
const features = import.meta.glob<{ default: Record<string, unknown> }>('../features/*/locales/*.json');

/** Namespace → language → loader: `common` from src/locales, one namespace per feature folder. */
const loaders = new Map<string, Map<string, Loader>>();
function add(ns: string, lng: string, loader: Loader) {
  if (!loaders.has(ns)) loaders.set(ns, new Map());
  loaders.get(ns)!.set(lng, loader);
}
for (const [path, loader] of Object.entries(common)) add('common', path.match(/([^/]+)\.json$/)![1], loader);
for (const [path, loader] of Object.entries(features)) {
  const [, ns, lng] = path.match(/features\/([^/]+)\/locales\/([^/]+)\.json$/)!;
  add(ns, lng, loader);
}
export const NAMESPACES = [...loaders.keys()];

/** Reads locale chunks lazily; i18next queues the reads (10 at once) and retries failures (5 times, 350 ms doubling). */
const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const load = loaders.get(namespace)?.get(language);
    if (!load) return callback(null, {});
    load().then(
      (m) => callback(null, m.default),
      (e: unknown) => callback(e instanceof Error ? e.message : String(e), true),
    );
  },
};

void i18n
  .use(chunkBackend)
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    // A stored choice wins over detection (console-spec §9); the server language is applied after /api/status.
    lng: normalizeLanguage(readString(STORAGE.appLanguage)) ?? undefined,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: LANGUAGES.map((l) => l.code),
    load: 'currentOnly',
    ns: NAMESPACES,
    defaultNS: 'common',
    fallbackNS: 'common',
    maxParallelReads: 10,
    maxRetries: 5,
    retryTimeout: 350,
    detection: {
      order: ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'],
      lookupQuerystring: 'lng',
      lookupCookie: 'i18next',
      lookupLocalStorage: STORAGE.i18nextLng,
      lookupSessionStorage: 'i18nextLng',
      caches: ['localStorage'],
      convertDetectedLanguage: (lng: string) => normalizeLanguage(lng) ?? FALLBACK_LANGUAGE,
    },
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

i18n.on('languageChanged', (lng) => {
  document.documentElement.lang = lng.replace('_', '-');
});

export default i18n;
