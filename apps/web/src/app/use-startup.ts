import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { i18n, TFunction } from 'i18next';
import type { SiteStatus } from '@one-hub/contract';
import { api, ApiError } from '../lib/api';
import { pickLanguage } from '../lib/language';
import { readJson, readString, STORAGE, writeJson, writeString } from '../lib/storage';
import { showError, showNotice } from '../lib/toast';
import { isNewVersion } from '../lib/version';
import { useAppDispatch, useAppSelector, type AppDispatch } from '../store';
import { setSiteInfo, siteInfoFrom } from '../store/site-info';
import { markNoticeRead, openNotice, setNotice } from '../store/notice';
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

/** The one toast a start-up failure earns: the rate limiter's own message, else "cannot connect". */
function startupFailure(error: unknown, t: TFunction): void {
  if (error instanceof ApiError && error.status === 429) showError(error);
  else showError(t('common.unableServer'));
}

/**
 * App start-up (console-screens §1.1): session, then site info, language, title and version notice, then
 * the notice. The calls go one after another, so a page load never bursts into the global rate limit;
 * a failure is toasted once.
 */
export async function startUp(dispatch: AppDispatch, t: TFunction, i18n: Pick<i18n, 'changeLanguage'>): Promise<void> {
  const sessionError = await dispatch(checkSession());
  if (sessionError) startupFailure(sessionError, t);
  try {
    const status = await api<SiteStatus>('/api/status');
    const info = storeSiteInfo(dispatch, status);
    void i18n.changeLanguage(pickLanguage(readString(STORAGE.appLanguage), info.language));
    if (status.analytics_code) injectHeadHtml(status.analytics_code);
    if (isNewVersion(status.version)) showNotice(t('common.newVersion', { version: status.version }));
  } catch (e) {
    const stored = readJson<SiteStatus>(STORAGE.siteInfo);
    dispatch(setSiteInfo(siteInfoFrom(stored)));
    void i18n.changeLanguage(pickLanguage(readString(STORAGE.appLanguage), stored?.language ?? readString(STORAGE.defaultLanguage)));
    if (!sessionError) startupFailure(e, t);
  }
  try {
    const notice = (await api<string>('/api/notice')) ?? '';
    dispatch(setNotice(notice));
    if (notice.trim() && notice !== readString(STORAGE.notice)) {
      writeString(STORAGE.notice, notice);
      dispatch(openNotice(true));
    } else dispatch(markNoticeRead());
  } catch {
    // the notice only decorates the header
  }
}

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
    void startUp(dispatch, t, i18n);
  }, [dispatch, i18n, t]);
}
