import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MailDetail } from '../api/types';
import { PrintView } from './PrintView';

/** Opens the mail's print view, which prints it. */
export function PrintButton({ mail }: { mail: MailDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} title={t('print.title')}>
        {t('print.print')}
      </button>
      {open && <PrintView mail={mail} onClose={() => setOpen(false)} />}
    </>
  );
}
