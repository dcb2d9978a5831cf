import { defineConfig } from 'vitest/config';

/** Unit tests (jsdom). The Chromium suite has its own config: vitest.e2e.config.ts. */
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('v0.0.0'), __APP_COMMIT__: JSON.stringify('abc1234') },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});
