/** Current time in Unix epoch seconds, the unit of every time column. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
