import { defineConfig } from 'vite';

// The API server's address while developing (`npm run dev` starts both).
const api = `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  root: 'web',
  // Preact through esbuild's automatic JSX runtime: no Babel, no framework plugin.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  server: {
    proxy: Object.fromEntries(
      ['/api', '/images', '/docs', '/openapi.json', '/healthz', '/readyz'].map((path) => [
        path,
        api,
      ]),
    ),
  },
});
