import { defineConfig } from 'vitest/config';

/** Test layout mirrors STYLE.md: unit, contracts, integration (real servers), e2e (real clients). */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
