import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// The web page: web/ built into dist/web, which the server serves (src/app/routes/web-routes.ts).
export default defineConfig({
  root: here('./web'),
  base: '/',
  // Every file the page needs is imported by its code, so it gets a hashed name under assets/.
  publicDir: false,
  // Preact's automatic JSX runtime through Vite's own esbuild: no framework plugin needed.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: here('./dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The build runs in every test's global setup: only warnings are worth printing.
    reportCompressedSize: false,
    rollupOptions: {
      onwarn(warning, warn) {
        // zod (reached through @cairn/core, then tree-shaken away) has `@__PURE__` comments Rollup
        // cannot place; it drops them, which is harmless, but would say so on every build.
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
    },
  },
  logLevel: 'warn',
});
