import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbort, messageOf } from '../api/http';
import { applyRules, fetchRules, saveRules } from '../api/rules';
import type { AppliedRules, Mailbox } from '../api/types';
import { mailboxName } from '../mailboxes/mailbox-name';
import { formatDateTime } from '../shared/format';
import { useAction } from '../shared/useAction';
import { withRule, type RuleDraft } from './sieve-rules';

const FIELDS: Array<RuleDraft['field']> = ['from', 'to', 'subject', 'header', 'list', 'attachment', 'size'];
const ACTIONS: Array<RuleDraft['action']> = ['fileinto', 'read', 'flag', 'discard', 'redirect'];

const EMPTY_RULE: RuleDraft = {
  name: '',
  field: 'from',
  header: '',
  operator: 'contains',
  value: '',
  action: 'fileinto',
  folder: '',
  address: '',
  keepCopy: false,
};

/**
 * Rules that sort mail as it arrives, kept as one Sieve script: the form adds a rule to the
 * script, and the script itself stays editable as text (a managesieve script pasted in works as
 * written). Saving sends the whole script; a problem the server finds is shown with its line. The
 * saved rules can be applied to the mail already in a folder.
 */
export function RulesSettings({ mailboxes }: { mailboxes: Mailbox[] }) {
  const { t } = useTranslation();
  const [script, setScript] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [rule, setRule] = useState<RuleDraft>(EMPTY_RULE);
  const [saved, setSaved] = useState(false);
  const { run, busy, error } = useAction();
  const folders = mailboxes.filter((mailbox) => mailbox.role !== 'inbox');
  const [applyTo, setApplyTo] = useState<number | null>(null);
  const [applied, setApplied] = useState<AppliedRules | null>(null);
  const applying = useAction();
  const applyFolder = applyTo ?? mailboxes.find((mailbox) => mailbox.role === 'inbox')?.id ?? mailboxes[0]?.id;

  useEffect(() => {
    const abort = new AbortController();
    fetchRules(abort.signal).then(setScript, (failure: unknown) => {
      if (!isAbort(failure)) setLoadError(messageOf(failure));
    });
    return () => abort.abort();
  }, []);

  const change = (fields: Partial<RuleDraft>) => setRule((current) => ({ ...current, ...fields }));
  const needsValue = rule.field !== 'attachment' && rule.field !== 'list';

  function addRule(event: FormEvent) {
    event.preventDefault();
    const folder = rule.folder || folders[0]?.name || '';
    setScript((current) =>
      withRule(current ?? '', { ...rule, folder, name: rule.name.trim() || t('rules.defaultName', { date: formatDateTime(new Date().toISOString()) }) }),
    );
    setRule(EMPTY_RULE);
    setSaved(false);
  }

  async function save() {
    setSaved(false);
    if (await run(() => saveRules(script ?? ''))) setSaved(true);
  }

  async function applyToExisting() {
    if (applyFolder === undefined) return;
    setApplied(null);
    const outcome = await applying.run(() => applyRules(applyFolder));
    if (outcome) setApplied(outcome.value);
  }

  return (
    <section className="card" aria-labelledby="rules-title">
      <h3 id="rules-title">{t('rules.title')}</h3>
      <p className="muted">{t('rules.hint')}</p>
      {loadError && (
        <p className="error" role="alert">
          {loadError}
        </p>
      )}
      <form className="rule-form" aria-label={t('rules.newRule')} onSubmit={addRule}>
        <div className="rule-field">
          <label htmlFor="rule-name">{t('rules.name')}</label>
          <input id="rule-name" value={rule.name} onChange={(event) => change({ name: event.target.value })} placeholder={t('rules.namePlaceholder')} />
        </div>
        <div className="rule-field">
          <label htmlFor="rule-field">{t('rules.when')}</label>
          <select id="rule-field" value={rule.field} onChange={(event) => change({ field: event.target.value as RuleDraft['field'] })}>
            {FIELDS.map((field) => (
              <option key={field} value={field}>
                {t(`rules.field.${field}`)}
              </option>
            ))}
          </select>
        </div>
        {rule.field === 'header' && (
          <div className="rule-field">
            <label htmlFor="rule-header">{t('rules.header')}</label>
            <input id="rule-header" required value={rule.header} onChange={(event) => change({ header: event.target.value })} placeholder="X-Priority" />
          </div>
        )}
        {rule.field !== 'attachment' && rule.field !== 'size' && (
          <div className="rule-field">
            <label htmlFor="rule-operator">{t('rules.match')}</label>
            <select id="rule-operator" value={rule.operator} onChange={(event) => change({ operator: event.target.value as RuleDraft['operator'] })}>
              <option value="contains">{t('rules.contains')}</option>
              <option value="is">{t('rules.is')}</option>
            </select>
          </div>
        )}
        {rule.field !== 'attachment' && (
          <div className="rule-field">
            <label htmlFor="rule-value">{t('rules.value')}</label>
            <input
              id="rule-value"
              required={needsValue}
              inputMode={rule.field === 'size' ? 'numeric' : undefined}
              value={rule.value}
              onChange={(event) => change({ value: event.target.value })}
            />
          </div>
        )}
        <div className="rule-field">
          <label htmlFor="rule-action">{t('rules.then')}</label>
          <select id="rule-action" value={rule.action} onChange={(event) => change({ action: event.target.value as RuleDraft['action'] })}>
            {ACTIONS.map((action) => (
              <option key={action} value={action}>
                {t(`rules.action.${action}`)}
              </option>
            ))}
          </select>
        </div>
        {rule.action === 'fileinto' && (
          <div className="rule-field">
            <label htmlFor="rule-folder">{t('rules.folder')}</label>
            <select id="rule-folder" value={rule.folder || folders[0]?.name || ''} onChange={(event) => change({ folder: event.target.value })}>
              {folders.map((mailbox) => (
                <option key={mailbox.id} value={mailbox.name}>
                  {mailboxName(mailbox)}
                </option>
              ))}
            </select>
          </div>
        )}
        {rule.action === 'redirect' && (
          <>
            <div className="rule-field">
              <label htmlFor="rule-address">{t('rules.address')}</label>
              <input
                id="rule-address"
                type="email"
                required
                value={rule.address}
                onChange={(event) => change({ address: event.target.value })}
                placeholder="name@example.com"
              />
            </div>
            <label className="rule-field rule-check">
              <input type="checkbox" checked={rule.keepCopy} onChange={(event) => change({ keepCopy: event.target.checked })} />
              {t('rules.keepCopy')}
            </label>
          </>
        )}
        <button type="submit" disabled={script === null}>
          {t('rules.add')}
        </button>
      </form>
      <label htmlFor="rules-script">{t('rules.script')}</label>
      <textarea
        id="rules-script"
        className="rules-script"
        spellCheck={false}
        rows={12}
        value={script ?? ''}
        disabled={script === null}
        onChange={(event) => {
          setScript(event.target.value);
          setSaved(false);
        }}
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {saved && <p role="status">{t('rules.saved')}</p>}
      <div className="form-buttons">
        <button type="button" className="primary" disabled={busy || script === null} onClick={() => void save()}>
          {t('rules.save')}
        </button>
      </div>
      <h4 id="rules-apply-title">{t('rules.apply.title')}</h4>
      <p className="muted">{t('rules.apply.hint')}</p>
      <div className="rule-form" role="group" aria-labelledby="rules-apply-title">
        <div className="rule-field">
          <label htmlFor="rules-apply-folder">{t('rules.apply.folder')}</label>
          <select id="rules-apply-folder" value={applyFolder ?? ''} onChange={(event) => setApplyTo(Number(event.target.value))}>
            {mailboxes.map((mailbox) => (
              <option key={mailbox.id} value={mailbox.id}>
                {mailboxName(mailbox)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" disabled={applying.busy || applyFolder === undefined} onClick={() => void applyToExisting()}>
          {t('rules.apply.button')}
        </button>
      </div>
      {applying.error && (
        <p className="error" role="alert">
          {applying.error}
        </p>
      )}
      {applied && <p role="status">{t('rules.apply.done', { examined: applied.examined, matched: applied.matched, changed: applied.changed })}</p>}
    </section>
  );
}
