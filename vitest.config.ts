import os from 'node:os';
import { defineConfig } from 'vitest/config';

/** Test layout mirrors STYLE.md: unit, contracts, integration (real servers), e2e (real clients). */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a condition that must come true; its own default deadline (1 s) assumed a fast machine.
    // Bounded by the test timeout instead: a condition that never comes true still fails the test.
    expect: { poll: { timeout: 25_000, interval: 50 } },
    pool: 'forks',
    // Test files spend most of their time waiting on servers, engines, browsers and child processes, not computing:
    // vitest's default (one fork fewer than the cores) ran this suite one file at a time on 2 cores (585 s); three
    // forks there took 347 s. Every file owns its database, port and bus namespace, so files do not share state.
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    reporters: ['default'],
  },
});
