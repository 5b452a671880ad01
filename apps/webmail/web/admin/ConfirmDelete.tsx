import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../shared/FormError';
import { useAction } from '../shared/useAction';

interface Props {
  /** The button's words, e.g. "Delete sales@example.com". */
  what: string;
  /** What the user is asked to confirm. */
  warning: string;
  onDelete(): Promise<unknown>;
  onDeleted(): void;
}

/** Deleting asks once more, in place, before anything is sent. */
export function ConfirmDelete({ what, warning, onDelete, onDeleted }: Props) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  const { run, busy, error } = useAction();

  async function confirm() {
    if (await run(onDelete)) onDeleted();
  }

  if (!asking) {
    return (
      <button type="button" className="danger" onClick={() => setAsking(true)}>
        {what}
      </button>
    );
  }
  return (
    <div className="confirm" role="alertdialog" aria-label={t('admin.confirmDeletion')}>
      <p>{warning}</p>
      <FormError message={error} />
      <span className="form-buttons">
        <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
          {t('admin.yesDelete')}
        </button>
        <button type="button" onClick={() => setAsking(false)}>
          {t('common.cancel')}
        </button>
      </span>
    </div>
  );
}
