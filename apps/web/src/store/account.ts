import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@one-hub/contract';
import { readJson, STORAGE } from '../lib/storage';

export interface UserGroupInfo {
  id?: number;
  symbol?: string;
  name: string;
  ratio: number;
  api_rate?: number;
  [k: string]: unknown;
}

export interface AccountState {
  user: User | null;
  /** False until the session check (`/api/user/self`) has answered. */
  userLoaded: boolean;
  userGroupMap: Record<string, UserGroupInfo>;
}

export const initialAccount = (): AccountState => ({
  user: readJson<User>(STORAGE.user),
  userLoaded: false,
  userGroupMap: {},
});

const slice = createSlice({
  name: 'account',
  initialState: initialAccount,
  reducers: {
    login: (s, a: PayloadAction<User>) => {
      s.user = a.payload;
      s.userLoaded = true;
    },
    logout: (s) => {
      s.user = null;
      s.userLoaded = true;
    },
    setUserLoaded: (s) => {
      s.userLoaded = true;
    },
    setUserGroupMap: (s, a: PayloadAction<Record<string, UserGroupInfo>>) => {
      s.userGroupMap = a.payload;
    },
  },
});

export const { login, logout, setUserLoaded, setUserGroupMap } = slice.actions;
export default slice.reducer;

/** Admin when the stored user's role is 10 or higher (console-spec §6). */
export const isAdminUser = (user: Pick<User, 'role'> | null | undefined) => (user?.role ?? 0) >= 10;
export const isRootUser = (user: Pick<User, 'role'> | null | undefined) => (user?.role ?? 0) >= 100;
