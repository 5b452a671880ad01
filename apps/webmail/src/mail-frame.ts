import type { IncomingMessage, ServerResponse } from 'node:http';
import { COMMON_HEADERS, mailFrameCsp } from './security-headers';

/** Sanitized mail HTML is at most a few MB; inline images come as data: URLs. */
export const MAIL_FRAME_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The document shown in the reading pane's frame. The SPA posts the read API's sanitized
 * HTML here (a form targeting the frame) and gets it back as a document with a policy of
 * its own: a srcdoc or blob: frame would inherit the SPA's policy, under which remote
 * images could never be shown, even when the reader asks.
 */
export function mailFrameDocument(html: string, remoteImages: boolean): string {
  return [
    '<!doctype html><html><head><meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<base target="_blank">',
    '<style>html{color-scheme:light}body{margin:0;padding:16px;font:15px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}table{max-width:100%}pre{white-space:pre-wrap}</style>',
    `</head><body data-remote-images="${remoteImages ? 'shown' : 'blocked'}">`,
    html,
    '</body></html>',
  ].join('');
}

function answer(response: ServerResponse, status: number, detail: string): void {
  const body = JSON.stringify({ type: 'about:blank', title: 'Bad Request', status, detail });
  response.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/**
 * POST /mail-frame with a form (`html`, `remote=1` to show remote images). Only this
 * origin's own pages may post it: a browser says so in Sec-Fetch-Site, so another site
 * cannot have its content shown here.
 */
export function handleMailFrame(request: IncomingMessage, response: ServerResponse): void {
  if (request.method !== 'POST') return answer(response, 405, 'POST the form');
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return answer(response, 403, 'only the webmail itself shows mail here');
  if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return answer(response, 415, 'send application/x-www-form-urlencoded');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  request.on('data', (chunk: Buffer) => {
    if (refused) return;
    size += chunk.length;
    if (size > MAIL_FRAME_MAX_BYTES) {
      refused = true;
      answer(response, 413, `at most ${MAIL_FRAME_MAX_BYTES} bytes`);
      request.resume();
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (refused) return;
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const remote = form.get('remote') === '1';
    const body = mailFrameDocument(form.get('html') ?? '', remote);
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
