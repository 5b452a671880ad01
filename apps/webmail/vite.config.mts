import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.mts';

const here = fileURLToPath(new URL('.', import.meta.url));
const readApi = process.env.READ_API_URL ?? 'http://127.0.0.1:3000';
const sendApi = process.env.SEND_API_URL ?? 'http://127.0.0.1:3001';
const webmail = process.env.WEBMAIL_URL ?? 'http://127.0.0.1:8080';

/**
 * The SPA. `vite build` writes it to dist/apps/webmail/public, where the webmail server
 * serves it. In development, Vite's dev server stands in for the webmail server: it
 * proxies the APIs (and the mail frame, from a running webmail server) the same way.
 */
export default defineConfig({
  root: `${here}web`,
  base: '/',
  plugins: [react(), precompress()],
  build: {
    outDir: `${here}../../dist/apps/webmail/public`,
    emptyOutDir: true,
    // Maps for the developers who build it, without the comment that tells every browser where to fetch them: the server does not serve them.
    sourcemap: 'hidden',
    // No inline scripts or data: modules: the page's policy allows scripts from 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    port: Number(process.env.WEBMAIL_DEV_PORT ?? 5173),
    proxy: {
      '/v2/mails/send': { target: sendApi, changeOrigin: true },
      '/v2': { target: readApi, changeOrigin: true },
      '/mail-frame': { target: webmail, changeOrigin: true },
    },
  },
});
