import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // One graphql instance: Vite would pick graphql's ESM build for our sources while graphql-yoga (run by Node)
  // loads the CommonJS one, and graphql refuses a schema "from another module or realm". Node picks CJS too.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Two files at once even on two cores (vitest's default is cores - 1): most files wait on child processes,
    // servers, a browser or the disk, so the whole suite takes ~3 min instead of ~4.5.
    maxWorkers: 2,
  },
});
