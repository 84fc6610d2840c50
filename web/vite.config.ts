import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `forja serve` listens during development (`npm run dev:web` proxies the API there). */
const API_TARGET = process.env['FORJA_API_URL'] ?? 'http://127.0.0.1:4321';

/** The browser UI: built into web/dist, which `forja serve` serves at `/`. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The first chunk holds what a session's first view needs: React DOM, the contract's zod schemas, Markdown
    // (about 560 kB); every other page, the production panel, diffs and step details are chunks of their own
    // (ADR 0424).
    chunkSizeWarningLimit: 600,
  },
  server: { host: '127.0.0.1', proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
});
