import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The first Tab stop: past the top bar and the mailboxes to the page's <main>. Focus moves there by hand, since
 * following the link would put `#main` in the address, which is the router's (it would leave the open mail).
 */
export function SkipLink() {
  const { t } = useTranslation();
  function skip(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    const shown = Array.from(document.querySelectorAll<HTMLElement>('main')).find((main) => main.checkVisibility());
    shown?.focus();
  }
  return (
    <a className="skip-link" href="#main" onClick={skip}>
      {t('app.skipToMain')}
    </a>
  );
}
