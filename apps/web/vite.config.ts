// CommonJS like the rest of the repo (no "type": "module"), so Vite's native config loader
// takes it as well as its bundling one: hence `import = require`.
/* eslint-disable @typescript-eslint/no-require-imports */
import path = require('node:path');
import vite = require('vite');

/**
 * The web UI's build: apps/web into dist/web, which the control plane serves at `/`. JSX goes
 * through Vite's own Oxc transform (React's automatic runtime), so no React plugin is needed.
 * `vite preview` proxies /api (and its socket) to a control plane at SESSIONBOXER_URL.
 */
export = vite.defineConfig({
  root: __dirname,
  base: '/',
  oxc: { jsx: { runtime: 'automatic' } },
  // The wire's shapes (libs/contracts): types only today, so the bundle never reaches it; the
  // alias is there for a pure constant it might hold one day. The domain's limits are a file
  // that imports nothing (the forms' maxLength, the provider and environment lists). Nothing
  // else of libs/ is mapped.
  resolve: {
    alias: {
      '@sessionboxer/contracts': path.resolve(__dirname, '../../libs/contracts/src'),
      '@sessionboxer/domain/limits': path.resolve(__dirname, '../../libs/domain/src/limits.ts'),
    },
  },
  build: {
    outDir: path.resolve(__dirname, '../../dist/web'),
    emptyOutDir: true,
  },
  preview: {
    proxy: {
      '/api': { target: process.env.SESSIONBOXER_URL ?? 'http://127.0.0.1:8080', ws: true },
    },
  },
});
