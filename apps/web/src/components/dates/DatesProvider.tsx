import type { ReactNode } from 'react';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { enUS, jaJP, zhCN, zhHK } from '@mui/x-date-pickers/locales';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-hk';
import 'dayjs/locale/ja';
import { useTranslation } from 'react-i18next';
import { dayjsLocale } from './date-range';

const LOCALE_TEXT = { 'zh-cn': zhCN, 'zh-hk': zhHK, ja: jaJP, en: enUS } as const;

/** MUI X pickers in the console language: dayjs locale plus the pickers' own texts (clear, OK, today…). */
export default function DatesProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = dayjsLocale(i18n.language);
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={locale} localeText={LOCALE_TEXT[locale].components.MuiLocalizationProvider.defaultProps.localeText}>
      {children}
    </LocalizationProvider>
  );
}
