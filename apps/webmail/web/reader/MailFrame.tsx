import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  html: string;
  remoteImages: boolean;
  /** The mail's language (its Content-Language), given to the frame's document. */
  lang: string | undefined;
}

/**
 * The mail's HTML in a sandboxed frame (no scripts, an opaque origin). The HTML is posted
 * to the webmail server's /mail-frame, which sends it back with a policy of its own that
 * blocks remote images and CSS url()s until the reader allows them: a srcdoc frame would
 * inherit this page's policy and could never show them. Give it a new key per document:
 * a fresh frame's first navigation replaces its blank page, so the browser's history
 * does not fill with the frame's documents.
 */
export function MailFrame({ html, remoteImages, lang }: Props) {
  const { t } = useTranslation();
  const name = `mail-frame-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    form.current?.submit();
  }, [html, remoteImages, lang]);

  return (
    <div className="mail-frame">
      <form ref={form} method="post" action="/mail-frame" target={name} hidden aria-hidden="true">
        <textarea name="html" readOnly value={html} />
        <input type="hidden" name="remote" value={remoteImages ? '1' : '0'} />
        {lang && <input type="hidden" name="lang" value={lang} />}
      </form>
      <iframe name={name} title={t('reader.body')} sandbox="allow-popups allow-popups-to-escape-sandbox" />
    </div>
  );
}
