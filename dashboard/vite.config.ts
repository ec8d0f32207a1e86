import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The dashboard's build: `npm install` runs it (postinstall `build:dashboard`) and the gateway serves `dist/` at `/`.
 * Every page is its own chunk (routes are lazy), so three.js reaches only the 3D pages. `npm run dev:dashboard`
 * proxies the API to a gateway on 127.0.0.1:8765.
 */
const API = ['/v1', '/api', '/mcp', '/health', '/metrics'];

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 800 },
  server: { proxy: Object.fromEntries(API.map((p) => [p, 'http://127.0.0.1:8765'])) },
});
