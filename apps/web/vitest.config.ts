import { defineConfig } from 'vitest/config';

/** Unit tests (jsdom). The Chromium suite has its own config: vitest.e2e.config.ts. */
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify('v0.0.0'), __APP_COMMIT__: JSON.stringify('abc1234') },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // A MUI dialog renders in 0.3–1.7 s in jsdom on a quiet machine; a loaded CI machine takes several times that.
    testTimeout: 20_000,
  },
});
