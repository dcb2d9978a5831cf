import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface NoticeState {
  text: string;
  open: boolean;
}

const slice = createSlice({
  name: 'notice',
  initialState: { text: '', open: false } as NoticeState,
  reducers: {
    setNotice: (s, a: PayloadAction<string>) => {
      s.text = a.payload;
    },
    openNotice: (s, a: PayloadAction<boolean>) => {
      s.open = a.payload && s.text.trim() !== '';
    },
  },
});

export const { setNotice, openNotice } = slice.actions;
export default slice.reducer;
