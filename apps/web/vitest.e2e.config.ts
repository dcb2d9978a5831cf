import { defineConfig } from 'vitest/config';

/** The console in a real Chromium against the real server (see e2e/). */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['e2e/global-setup.ts'],
    // Screens in four languages, two widths and two themes take 35–50 s on a quiet machine: twice that on a loaded one.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // A loaded CI machine renders slowly: polls wait for the page, never a fixed time.
    expect: { poll: { timeout: 10_000 } },
  },
});
