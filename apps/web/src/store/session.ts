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

/** Reads the session from the server; a 401 here is silent and just means "signed out". */
export const checkSession = () => async (dispatch: AppDispatch) => {
  try {
    const user = await api<User>('/api/user/self', { silent401: true });
    dispatch(storeUser(user));
    void dispatch(loadUserGroupMap());
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status && status < 500) dispatch(forgetUser());
    // the server is unreachable: keep the stored user so the console still opens
    else dispatch(setUserLoaded());
  }
};

export const signOut = () => async (dispatch: AppDispatch) => {
  await api('/api/user/logout').catch(() => undefined);
  dispatch(forgetUser());
};
