import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Where `forja serve` listens during development (`npm run dev:web` proxies the API there). */
const API_TARGET = process.env['FORJA_API_URL'] ?? 'http://127.0.0.1:4321';

/** The browser UI: built into web/dist, which `forja serve` serves at `/`. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets' },
  server: { host: '127.0.0.1', proxy: { '/api': { target: API_TARGET, changeOrigin: false } } },
});
