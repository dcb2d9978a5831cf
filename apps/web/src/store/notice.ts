import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface NoticeState {
  text: string;
  open: boolean;
  /** The header's dot shows until this notice has been opened (here or on an earlier visit). */
  read: boolean;
}

const slice = createSlice({
  name: 'notice',
  initialState: { text: '', open: false, read: false } as NoticeState,
  reducers: {
    setNotice: (s, a: PayloadAction<string>) => {
      if (a.payload !== s.text) s.read = false;
      s.text = a.payload;
    },
    openNotice: (s, a: PayloadAction<boolean>) => {
      s.open = a.payload && s.text.trim() !== '';
      if (s.open) s.read = true;
    },
    markNoticeRead: (s) => {
      s.read = true;
    },
  },
});

export const { setNotice, openNotice, markNoticeRead } = slice.actions;
export default slice.reducer;
