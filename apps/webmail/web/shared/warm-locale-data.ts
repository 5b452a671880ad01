import { currentLanguage } from '../i18n/i18n';

/**
 * The page's first Intl date or number formatter waits for the browser to load its locale data: 40 to 180 ms on
 * the main thread here, paid by the list's first dates (or the quota meter's sizes) in the middle of the first
 * rows, a long task four times longer on a phone. That data belongs to the renderer process, not to the page: a
 * worker that makes a formatter first loads it on another thread while the main thread runs the app's script and
 * waits for the first answers, and the page's own formatters are then made in under a millisecond.
 */
export function warmLocaleData(): void {
  new Worker(new URL('./locale-data.worker.ts', import.meta.url), { type: 'module' }).postMessage(currentLanguage());
}
