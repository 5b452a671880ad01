import { decodeHTML } from 'entities';
import { scanHtml } from './html-scan';

/**
 * HTML beyond this is not read for its text: a snippet and a text view need far less, and
 * the work per message stays bounded whatever a sender writes.
 */
export const MAX_HTML_TO_TEXT_CHARS = 1024 * 1024;

/** Elements that end a line of text when they close (and <br> wherever it is). */
const LINE_ENDING = new Set(['p', 'div', 'tr', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'ul', 'ol']);

/**
 * A plain-text rendering of HTML for snippets and text-only clients, linear in its input
 * (scanHtml): tags become spaces, line-ending elements line breaks; hidden elements and
 * comments go; entities are decoded.
 */
export function htmlToText(input: string): string {
  const html = input.length > MAX_HTML_TO_TEXT_CHARS ? input.slice(0, MAX_HTML_TO_TEXT_CHARS) : input;
  const out: string[] = [];
  scanHtml(html, {
    text: (text) => out.push(text),
    tag: (name, closing) => out.push((closing ? LINE_ENDING.has(name) : name === 'br') ? '\n' : ' '),
  });
  return decodeHTML(out.join(''))
    .replace(/\u00a0/g, ' ')
    .replace(/[ \t\r\f\v]+/g, ' ')
    .replace(/ ?\n[\n ]*/g, (breaks) => (breaks.indexOf('\n') !== breaks.lastIndexOf('\n') ? '\n\n' : '\n'))
    .trim();
}
