import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeProblem } from '@letterbox/http';
import { COMMON_HEADERS, mailFrameCsp } from './security-headers';

/**
 * The read API shows at most 2 MB of each body part, and inline images by URL, not inline:
 * its sanitized HTML, form-encoded by the browser, stays well under this.
 */
export const MAIL_FRAME_MAX_BYTES = 8 * 1024 * 1024;
/** Frames being received at once; each may hold up to MAIL_FRAME_MAX_BYTES until it is answered. */
export const MAIL_FRAME_CONCURRENCY = 16;
/** A browser posts a frame from memory at once; a client trickling it holds a slot, so it is cut. */
export const MAIL_FRAME_TIMEOUT_MS = 30_000;

let framesInProgress = 0;

/** A language tag as the SPA passes it from the mail's Content-Language: ko, en-US, zh-Hant-TW. */
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,6}$/;

/**
 * The document shown in the reading pane's frame. The SPA posts the read API's sanitized
 * HTML here (a form targeting the frame) and gets it back as a document with a policy of
 * its own: a srcdoc or blob: frame would inherit the SPA's policy, under which remote
 * images could never be shown, even when the reader asks.
 */
export function mailFrameDocument(html: string, remoteImages: boolean, lang?: string): string {
  return [
    `<!doctype html><html${lang ? ` lang="${lang}"` : ''}><head><meta charset="utf-8">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<base target="_blank">',
    '<style>html{color-scheme:light}body{margin:0;padding:16px;font:15px/1.5 "Noto Sans KR","Noto Sans CJK KR",system-ui,sans-serif;color:#1f2328;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}table{max-width:100%}pre{white-space:pre-wrap}</style>',
    `</head><body data-remote-images="${remoteImages ? 'shown' : 'blocked'}">`,
    html,
    '</body></html>',
  ].join('');
}

/** A refusal, unless the frame was answered already (a timeout after the size limit, or the other way round). */
function answer(response: ServerResponse, status: number, detail: string, headers: Record<string, string> = {}): void {
  if (!response.headersSent) writeProblem(response, status, detail, headers);
}

/**
 * POST /mail-frame with a form (`html`, `remote=1` to show remote images, `lang` the mail's language). Only this
 * origin's own pages may post it: a browser says so in Sec-Fetch-Site (every browser the
 * webmail runs in sends it), so another site, or a script without a browser, cannot have
 * its content shown here.
 */
export function handleMailFrame(request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'POST') return answer(response, 405, 'POST the form');
  if (request.headers['sec-fetch-site'] !== 'same-origin') {
    return answer(response, 403, 'header.sec-fetch-site: only the webmail itself, in a browser, shows mail here (same-origin)');
  }
  if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return answer(response, 415, 'send application/x-www-form-urlencoded');
  }
  if (framesInProgress >= MAIL_FRAME_CONCURRENCY) return answer(response, 503, 'too many mail frames at once; try again', { 'retry-after': '1' });
  framesInProgress++;
  response.once('close', () => framesInProgress--);
  // `connection: close` ends the socket once answered, so the rest of the body is never read.
  const timeout = setTimeout(
    () => answer(response, 408, `the form did not arrive within ${MAIL_FRAME_TIMEOUT_MS / 1000} s`, { connection: 'close' }),
    MAIL_FRAME_TIMEOUT_MS,
  );
  response.once('close', () => clearTimeout(timeout));
  const chunks: Buffer[] = [];
  let size = 0;
  request.on('data', (chunk: Buffer) => {
    if (response.headersSent) return;
    size += chunk.length;
    if (size > MAIL_FRAME_MAX_BYTES) {
      chunks.length = 0;
      answer(response, 413, `body: at most ${MAIL_FRAME_MAX_BYTES} bytes`, { connection: 'close' });
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (response.headersSent) return;
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const remote = form.get('remote') === '1';
    const lang = form.get('lang') ?? undefined;
    if (lang !== undefined && !LANGUAGE_TAG.test(lang)) return answer(response, 400, 'lang: one language tag, such as ko or en-US');
    const body = mailFrameDocument(form.get('html') ?? '', remote, lang);
    response.writeHead(200, {
      ...COMMON_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'content-security-policy': mailFrameCsp(remote),
      'cache-control': 'no-store',
    });
    response.end(body);
  });
  request.on('error', () => response.destroy());
}
