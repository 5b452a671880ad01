import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbort, messageOf } from '../api/http';
import { changeIdentity, fetchIdentities } from '../api/identities';
import type { Identity } from '../api/types';
import { RichEditor } from '../compose/RichEditor';
import { useAction } from '../shared/useAction';
import { signatureChanges, signatureDraftOf, withHtml, withRich, withText } from './signature-draft';

/** Each of the user's addresses with the name mail from it shows and its signature, which compose puts above the quote. */
export function IdentitiesSettings() {
  const { t } = useTranslation();
  const [identities, setIdentities] = useState<Identity[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    fetchIdentities(abort.signal).then(
      (list) => setIdentities(list.items),
      (failure: unknown) => {
        if (!isAbort(failure)) setLoadError(messageOf(failure));
      },
    );
    return () => abort.abort();
  }, []);

  return (
    <section className="card" aria-labelledby="identities-title">
      <h3 id="identities-title">{t('identities.title')}</h3>
      <p className="muted">{t('identities.hint')}</p>
      {loadError && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      {identities?.map((identity) => (
        <IdentityForm key={identity.address} identity={identity} />
      ))}
    </section>
  );
}

function IdentityForm({ identity }: { identity: Identity }) {
  const { t } = useTranslation();
  const [displayName, setDisplayName] = useState(identity.displayName);
  const [signature, setSignature] = useState(() => signatureDraftOf(identity));
  const [saved, setSaved] = useState(false);
  const { run, busy, error } = useAction();
  const id = identity.address.replace(/[^a-z0-9]/gi, '-');

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    if (await run(() => changeIdentity(identity.address, { displayName, ...signatureChanges(signature) }))) setSaved(true);
  }

  return (
    <form className="stacked-form identity-form" aria-label={identity.address} onSubmit={(event) => void save(event)}>
      <h4>{identity.address}</h4>
      <label htmlFor={`identity-name-${id}`}>{t('identities.name')}</label>
      <input id={`identity-name-${id}`} required maxLength={200} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
      <label className="format-toggle">
        <input type="checkbox" checked={signature.rich} onChange={(event) => setSignature(withRich(signature, event.target.checked))} />{' '}
        {t('identities.formatted')}
      </label>
      {signature.rich ? (
        <>
          <span className="field-title" aria-hidden="true">
            {t('identities.signature')}
          </span>
          <RichEditor
            id={`identity-signature-html-${id}`}
            label={t('identities.signature')}
            initialHtml={signature.html}
            onChange={(html) => setSignature((current) => withHtml(current, html))}
          />
          <label htmlFor={`identity-signature-${id}`}>{t('identities.plainSignature')}</label>
          <textarea
            id={`identity-signature-${id}`}
            rows={3}
            maxLength={5000}
            value={signature.text}
            aria-describedby={`identity-signature-hint-${id}`}
            onChange={(event) => setSignature(withText(signature, event.target.value))}
          />
          <p className="field-note" id={`identity-signature-hint-${id}`}>
            {t('identities.plainSignatureHint')}
          </p>
        </>
      ) : (
        <>
          <label htmlFor={`identity-signature-${id}`}>{t('identities.signature')}</label>
          <textarea
            id={`identity-signature-${id}`}
            rows={3}
            maxLength={5000}
            value={signature.text}
            onChange={(event) => setSignature(withText(signature, event.target.value))}
          />
        </>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {saved && <p role="status">{t('identities.saved')}</p>}
      <div className="form-buttons">
        <button type="submit" disabled={busy}>
          {t('identities.save')}
        </button>
      </div>
    </form>
  );
}
