import { defineConfig } from 'vitest/config';

/** The console in a real Chromium against the real server (see e2e/). */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // A loaded CI machine renders slowly: polls wait for the page, never a fixed time.
    expect: { poll: { timeout: 10_000 } },
  },
});
