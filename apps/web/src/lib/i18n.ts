import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import zh_CN from '../locales/zh_CN.json';
import zh_HK from '../locales/zh_HK.json';
import en_US from '../locales/en_US.json';
import ja_JP from '../locales/ja_JP.json';

export const LANGUAGES = [
  { code: 'zh_CN', label: '简体中文' },
  { code: 'zh_HK', label: '繁體中文' },
  { code: 'en_US', label: 'English' },
  { code: 'ja_JP', label: '日本語' },
] as const;

void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { zh_CN: { translation: zh_CN }, zh_HK: { translation: zh_HK }, en_US: { translation: en_US }, ja_JP: { translation: ja_JP } },
    fallbackLng: 'zh_CN',
    supportedLngs: LANGUAGES.map((l) => l.code),
    detection: { order: ['localStorage', 'navigator'], lookupLocalStorage: 'appLanguage', caches: ['localStorage'], convertDetectedLanguage: 'Iso15897' },
    interpolation: { escapeValue: false },
  });

export default i18n;
