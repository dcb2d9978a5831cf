import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SiteStatus } from '@one-hub/contract';
import { api } from '../lib/api';
import { pickLanguage } from '../lib/language';
import { readJson, readString, STORAGE, writeJson, writeString } from '../lib/storage';
import { showError, showNotice } from '../lib/toast';
import { isNewVersion } from '../lib/version';
import { useAppDispatch, useAppSelector, type AppDispatch } from '../store';
import { setSiteInfo, siteInfoFrom } from '../store/site-info';
import { openNotice, setNotice } from '../store/notice';
import { checkSession } from '../store/session';
import { injectHeadHtml } from './head-html';

/** Keeps a status answer in the store and local storage; answers the merged site info. */
function storeSiteInfo(dispatch: AppDispatch, status: SiteStatus) {
  const info = siteInfoFrom(status);
  writeJson(STORAGE.siteInfo, info);
  writeString(STORAGE.quotaPerUnit, String(info.quota_per_unit));
  writeString(STORAGE.displayInCurrency, String(info.display_in_currency));
  writeString(STORAGE.defaultLanguage, info.language);
  dispatch(setSiteInfo(info));
  return info;
}

/** Reloads site info after a settings change (console-screens §3.6); a failure keeps the current one. */
export async function reloadSiteInfo(dispatch: AppDispatch): Promise<void> {
  try {
    storeSiteInfo(dispatch, await api<SiteStatus>('/api/status'));
  } catch {
    // the settings were saved; the header catches up on the next start
  }
}

/** App start-up (console-screens §1.1): site info, language, title, version notice, session, notice. */
export function useStartup() {
  const dispatch = useAppDispatch();
  const { t, i18n } = useTranslation();
  const systemName = useAppSelector((s) => s.siteInfo.system_name);
  const started = useRef(false);

  useEffect(() => {
    document.title = systemName;
  }, [systemName]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void dispatch(checkSession());
    api<SiteStatus>('/api/status')
      .then((status) => {
        const info = storeSiteInfo(dispatch, status);
        void i18n.changeLanguage(pickLanguage(readString(STORAGE.appLanguage), info.language));
        if (status.analytics_code) injectHeadHtml(status.analytics_code);
        if (isNewVersion(status.version)) showNotice(t('common.newVersion', { version: status.version }));
      })
      .catch(() => {
        const stored = readJson<SiteStatus>(STORAGE.siteInfo);
        dispatch(setSiteInfo(siteInfoFrom(stored)));
        void i18n.changeLanguage(pickLanguage(readString(STORAGE.appLanguage), stored?.language ?? readString(STORAGE.defaultLanguage)));
        showError(t('common.unableServer'));
      });
    api<string>('/api/notice')
      .then((text) => {
        const notice = text ?? '';
        dispatch(setNotice(notice));
        if (notice.trim() && notice !== readString(STORAGE.notice)) {
          writeString(STORAGE.notice, notice);
          dispatch(openNotice(true));
        }
      })
      .catch(() => undefined);
  }, [dispatch, i18n, t]);
}
