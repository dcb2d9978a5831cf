import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readString, STORAGE } from '../lib/storage';

export type ThemeMode = 'light' | 'dark';

export interface CustomizationState {
  /** Ids of the opened menu items (the current item and its collapse). */
  isOpen: string[];
  defaultId: string;
  fontFamily: string;
  borderRadius: number;
  /** Sidebar drawer open. */
  opened: boolean;
  theme: ThemeMode;
}

export const DEFAULT_FONT = `'Roboto', 'Noto Sans SC', 'PingFang SC', 'Hiragino Sans', system-ui, -apple-system, 'Segoe UI', sans-serif`;

export function initialCustomization(): CustomizationState {
  return {
    isOpen: [],
    defaultId: 'default',
    fontFamily: DEFAULT_FONT,
    borderRadius: 12,
    opened: true,
    theme: readString(STORAGE.theme) === 'dark' ? 'dark' : 'light',
  };
}

const slice = createSlice({
  name: 'customization',
  initialState: initialCustomization,
  reducers: {
    setMenu: (s, a: PayloadAction<boolean>) => {
      s.opened = a.payload;
    },
    menuOpen: (s, a: PayloadAction<string>) => {
      s.isOpen = [a.payload];
    },
    setFontFamily: (s, a: PayloadAction<string>) => {
      s.fontFamily = a.payload;
    },
    setBorderRadius: (s, a: PayloadAction<number>) => {
      s.borderRadius = a.payload;
    },
    setTheme: (s, a: PayloadAction<ThemeMode>) => {
      s.theme = a.payload;
    },
  },
});

export const { setMenu, menuOpen, setFontFamily, setBorderRadius, setTheme } = slice.actions;
export default slice.reducer;
