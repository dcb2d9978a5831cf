import type { User } from '@one-hub/contract';
import { api } from '../lib/api';
import { remove, STORAGE, writeJson } from '../lib/storage';
import { login, logout, setUserGroupMap, setUserLoaded, type UserGroupInfo } from './account';
import type { AppDispatch } from './index';

/** Stores the signed-in user (local storage `user` and the account). */
export const storeUser = (user: User) => (dispatch: AppDispatch) => {
  writeJson(STORAGE.user, user);
  dispatch(login(user));
};

/** Forgets the user: on sign-out and on any 401. */
export const forgetUser = () => (dispatch: AppDispatch) => {
  remove(STORAGE.user);
  dispatch(logout());
};

export const loadUserGroupMap = () => async (dispatch: AppDispatch) => {
  try {
    dispatch(setUserGroupMap((await api<Record<string, UserGroupInfo>>('/api/user_group_map')) ?? {}));
  } catch {
    // the map only decorates screens; they work without it
  }
};

/**
 * Reads the session from the server. Only a 401 means "signed out" (silently); any other failure — a
 * 429 from the global rate limiter, an unreachable server — keeps the stored user and is answered to
 * the caller, which says what went wrong.
 */
export const checkSession = () => async (dispatch: AppDispatch): Promise<unknown> => {
  try {
    const user = await api<User>('/api/user/self', { silent401: true });
    dispatch(storeUser(user));
    await dispatch(loadUserGroupMap());
    return undefined;
  } catch (e) {
    if ((e as { status?: number }).status === 401) {
      dispatch(forgetUser());
      return undefined;
    }
    dispatch(setUserLoaded());
    return e;
  }
};

export const signOut = () => async (dispatch: AppDispatch) => {
  await api('/api/user/logout').catch(() => undefined);
  dispatch(forgetUser());
};
