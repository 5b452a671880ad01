import { z } from 'zod';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, opsConfig, pemFileSetting, portFrom } from '@letterbox/config';

/** The repository, found from this file whether it runs from source or from dist/. */
function repoRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'nx.json'))) return dir;
  }
  return process.cwd();
}

const ROOT = repoRoot(__dirname);

const upstream = (fallback: string) =>
  z
    .url({ protocol: /^https?$/, message: 'must be an http:// URL' })
    .default(fallback)
    .transform((value) => new URL(value));

export const webmailSettings = {
  WEBMAIL_PORT: portFrom(8080),
  WEBMAIL_HOST: z.string().min(1).default('0.0.0.0'),
  /** The certificate (with its chain) and key, PEM files, both or neither: with them the webmail serves HTTPS alone, with HSTS. */
  WEBMAIL_TLS_CERT: pemFileSetting('certificate'),
  WEBMAIL_TLS_KEY: pemFileSetting('private key'),
  ...opsConfig(9107),
  /** The built SPA (vite build output). */
  WEBMAIL_STATIC_DIR: z
    .string()
    .min(1)
    .default('dist/apps/webmail/public')
    .transform((dir) => path.resolve(ROOT, dir)),
  /** `/v2/mails/send` and below go here. */
  SEND_API_URL: upstream('http://127.0.0.1:3001'),
  /** Every other `/v2/` route goes here. */
  READ_API_URL: upstream('http://127.0.0.1:3000'),
  /** Live update streams (/v2/events) open through the webmail at once, each holding a socket to the read API. */
  WEBMAIL_MAX_EVENT_STREAMS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Live update streams from one client address (an office behind one NAT address has many users). */
  WEBMAIL_MAX_EVENT_STREAMS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(200),
};

export type WebmailConfig = ReturnType<typeof loadWebmailConfig>;

export function loadWebmailConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(webmailSettings, env);
}
