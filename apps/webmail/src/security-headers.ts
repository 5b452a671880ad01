/**
 * The SPA's own policy: everything from this origin, images also from data: and blob: URLs
 * (inline mail images, downloads), frames from this origin (the mail frame). Nothing remote.
 */
export const SPA_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self' blob: about:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The mail frame's policy. `sandbox` makes the document an opaque origin without scripts
 * even if it is opened on its own; remote images (and CSS url()s, which img-src and
 * font-src also govern) load only once the reader asked for them.
 */
export function mailFrameCsp(remoteImages: boolean): string {
  return [
    'sandbox allow-popups allow-popups-to-escape-sandbox',
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    remoteImages ? 'img-src data: blob: http: https:' : 'img-src data: blob:',
    remoteImages ? 'font-src data: http: https:' : 'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/**
 * Served over HTTPS, the browser is told to use nothing else for this host for a year (RFC 6797);
 * not for subdomains, which may be other services.
 */
export const HSTS = 'max-age=31536000';
