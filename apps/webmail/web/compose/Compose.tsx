import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { sendDraft, sendMail } from '../api/endpoints';
import { ApiError, messageOf, SessionExpiredError } from '../api/http';
import type { SendView } from '../api/types';
import { i18next } from '../i18n/i18n';
import { formatSize } from '../shared/format';
import { AttachmentPicker } from './AttachmentPicker';
import { answeringIdentity } from './answering-identity';
import { draftProblems, editorHtml, sendAtOf, sendBody, type Draft } from './draft';
import { withIdentity } from './identity-draft';
import { RecipientField } from './RecipientField';
import { RichEditor } from './RichEditor';
import { useDraftAutosave, type DraftEdit, type SaveState } from './useDraftAutosave';
import { useIdentities } from './useIdentities';

/** A date as a datetime-local input shows it: local time, to the minute. */
const localDateTime = (date: Date) => new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

const TITLES = { reply: 'compose.reply', replyAll: 'compose.replyAll', forward: 'compose.forward' } as const;
const SAVE_LABELS: Record<SaveState, (detail: string) => string> = {
  unsaved: () => '',
  saving: () => i18next.t('compose.saving'),
  saved: () => i18next.t('compose.saved'),
  partial: (unfinished) => i18next.t('compose.partial', { unfinished }),
  conflict: () => i18next.t('compose.conflict'),
  failed: (reason) => i18next.t('compose.failed', { reason }),
};
const UNDO_DELAYS = [5, 10, 30];
/** RFC 5322's longest line, which a subject must fit in. */
const SUBJECT_MAX = 998;
/** The fields a problem can name, in the order they are shown, with the control that takes focus for it. */
const PROBLEM_FIELDS = [
  ['to', 'compose-to'],
  ['cc', 'compose-cc'],
  ['bcc', 'compose-bcc'],
  ['subject', 'compose-subject'],
  ['files', 'compose-files'],
  ['attachments', 'compose-files'],
  ['sendLaterAt', 'compose-send-later'],
] as const;

interface Props {
  draft: Draft;
  /** Edits are applied to the draft as it is by then: a save ending meanwhile (its server copy) is kept. */
  onChange(edit: DraftEdit): void;
  onSent(send: SendView, draft: Draft): void;
  onClose(): void;
  onDiscard(): void;
}

/**
 * The compose dialog: the identity it is from (its signature in the body), recipients
 * (completed from contacts), subject, rich or plain text, files and send options. The draft is saved on the server as it is written, and a saved
 * draft is sent from there, its files already uploaded.
 */
export function Compose({ draft, onChange, onSent, onClose, onDiscard }: Props) {
  const { t } = useTranslation();
  const autosave = useDraftAutosave(draft, onChange);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [showCopies, setShowCopies] = useState(Boolean(draft.cc || draft.bcc));
  const idempotencyKey = useRef(crypto.randomUUID());
  const dialog = useRef<HTMLDivElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  const opener = useRef<Element | null>(document.activeElement);

  useEffect(() => {
    firstField.current?.focus();
    const previous = opener.current;
    return () => (previous as HTMLElement | null)?.focus?.();
  }, []);

  // Problems found (here or by the server) are announced where they are shown, and focus goes to the first field named.
  useEffect(() => {
    const first = PROBLEM_FIELDS.find(([name]) => problems[name]);
    if (first) document.getElementById(first[1])?.focus();
  }, [problems]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange((current) => ({ ...current, [key]: value }));
  const subjectNotes = [problems.subject && 'compose-subject-error', draft.subject.length >= SUBJECT_MAX && 'compose-subject-limit'].filter(Boolean).join(' ');

  const { identities, error: identitiesError } = useIdentities();
  const chosen = identities?.find((identity) => identity.address === draft.from) ?? identities?.find((identity) => identity.primary);
  useEffect(() => {
    if (!identities || !draft.choosingFrom) return;
    const identity = answeringIdentity(identities, draft.choosingFrom.addressedTo);
    if (identity) onChange((current) => withIdentity(current, identity));
  }, [identities, draft.choosingFrom, onChange]);
  function chooseIdentity(address: string) {
    const identity = identities?.find((candidate) => candidate.address === address);
    if (identity) onChange((current) => withIdentity(current, identity));
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = draftProblems(draft);
    setProblems(found);
    setError(null);
    if (Object.keys(found).length) return;
    setSending(true);
    try {
      let send: SendView;
      if (draft.server) {
        const saved = await autosave.save();
        send = await sendDraft(saved.server?.id ?? draft.server.id, saved.server?.version ?? draft.server.version, sendAtOf(draft));
      } else {
        send = await autosave.sendWithoutSaving(() => sendMail(sendBody(draft), idempotencyKey.current));
      }
      onSent(send, { ...draft, server: null, serverAttachments: [] });
    } catch (failure) {
      setSending(false);
      if (failure instanceof SessionExpiredError) return; // the draft is kept for after sign-in
      if (failure instanceof ApiError && failure.fieldErrors.length) {
        setProblems(Object.fromEntries(failure.fieldErrors.map((item) => [item.field.replace(/^body\./, '').split('.')[0], item.message])));
      }
      setError(messageOf(failure));
    }
  }

  // Tab stays inside the dialog; Escape closes it (the draft is kept).
  function trapKeys(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = dialog.current.querySelectorAll<HTMLElement>('input, select, textarea, button, [contenteditable="true"], [tabindex="0"]');
    const visible = Array.from(focusable).filter((element) => !element.hasAttribute('disabled') && element.offsetParent !== null);
    const first = visible[0];
    const last = visible[visible.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  }

  const field = (name: 'to' | 'cc' | 'bcc', label: string) => (
    <RecipientField
      id={`compose-${name}`}
      label={label}
      value={draft[name]}
      error={problems[name]}
      inputRef={name === 'to' ? firstField : undefined}
      onChange={(value) => set(name, value)}
    />
  );
  const title = draft.original ? t(TITLES[draft.original.mode]) : t('compose.newMessage');

  return (
    <div className="dialog-backdrop">
      <div className="dialog compose" role="dialog" aria-modal="true" aria-labelledby="compose-title" ref={dialog} onKeyDown={trapKeys}>
        <form onSubmit={submit} noValidate>
          <header className="dialog-header">
            <h2 id="compose-title">{title}</h2>
            <button type="button" className="icon" aria-label={t('compose.closeKeepDraft')} onClick={onClose}>
              ✕
            </button>
          </header>
          {identities && chosen && (
            <div className="compose-field">
              <label htmlFor="compose-from">{t('compose.from')}</label>
              <select id="compose-from" value={chosen.address} onChange={(event) => chooseIdentity(event.target.value)}>
                {identities.map((identity) => (
                  <option key={identity.address} value={identity.address}>
                    {t('compose.identity', { name: identity.displayName, address: identity.address })}
                  </option>
                ))}
              </select>
            </div>
          )}
          {identitiesError && (
            <p className="error" role="alert">
              {t('compose.identitiesFailed', { reason: identitiesError })}
            </p>
          )}
          {field('to', t('compose.to'))}
          {showCopies ? (
            <>
              {field('cc', t('compose.cc'))}
              {field('bcc', t('compose.bcc'))}
            </>
          ) : (
            <button type="button" className="link" onClick={() => setShowCopies(true)}>
              {t('compose.showCopies')}
            </button>
          )}
          <div className="compose-field">
            <label htmlFor="compose-subject">{t('compose.subject')}</label>
            <input
              id="compose-subject"
              type="text"
              value={draft.subject}
              onChange={(event) => set('subject', event.target.value)}
              maxLength={SUBJECT_MAX}
              aria-invalid={problems.subject ? true : undefined}
              aria-describedby={subjectNotes || undefined}
            />
            {problems.subject && (
              <p className="field-error" id="compose-subject-error" role="alert">
                {problems.subject}
              </p>
            )}
            <p className="field-note" id="compose-subject-limit" role="status">
              {draft.subject.length >= SUBJECT_MAX && t('compose.subjectAtLimit', { max: SUBJECT_MAX })}
            </p>
          </div>
          <div className="compose-body">
            <label className="format-toggle">
              <input type="checkbox" checked={draft.rich} onChange={(event) => set('rich', event.target.checked)} /> {t('compose.richText')}
            </label>
            {draft.rich ? (
              <RichEditor
                // A signature swapped for another identity's is new content: the editor starts again from it.
                key={draft.signature?.inserted}
                id="compose-body"
                initialHtml={editorHtml(draft)}
                onChange={(html) => set('html', html)}
              />
            ) : (
              <>
                <label htmlFor="compose-text" className="visually-hidden">
                  {t('compose.message')}
                </label>
                <textarea id="compose-text" rows={12} value={draft.text} onChange={(event) => set('text', event.target.value)} />
              </>
            )}
          </div>
          {draft.serverAttachments.length > 0 && (
            <ul className="server-attachments" aria-label={t('compose.attached')}>
              {draft.serverAttachments.map((attachment) => (
                <li key={attachment.id}>
                  {attachment.filename} <span className="size">({formatSize(attachment.size)})</span>
                  <button
                    type="button"
                    className="link"
                    aria-label={t('compose.removeNamed', { name: attachment.filename })}
                    onClick={() => autosave.removeServerAttachment(attachment.id)}
                  >
                    {t('common.remove')}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <AttachmentPicker files={draft.files} error={problems.files ?? problems.attachments} onChange={(files) => set('files', files)} />
          <fieldset className="send-options">
            <legend className="visually-hidden">{t('compose.sendOptions')}</legend>
            <label>
              <input type="checkbox" checked={draft.requestReadReceipt} onChange={(event) => set('requestReadReceipt', event.target.checked)} />{' '}
              {t('compose.readReceipt')}
            </label>
            <label>
              <input type="checkbox" checked={draft.sendSeparately} onChange={(event) => set('sendSeparately', event.target.checked)} />{' '}
              {t('compose.separately')}
            </label>
            <label>
              {t('compose.undoFor')}{' '}
              <select value={draft.undoSeconds} onChange={(event) => set('undoSeconds', Number(event.target.value))}>
                <option value={0}>{t('compose.noDelay')}</option>
                {UNDO_DELAYS.map((seconds) => (
                  <option key={seconds} value={seconds}>
                    {t('compose.seconds', { count: seconds })}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('compose.sendLater')}{' '}
              <input
                id="compose-send-later"
                type="datetime-local"
                value={draft.sendLaterAt}
                min={localDateTime(new Date())}
                aria-invalid={problems.sendLaterAt ? true : undefined}
                aria-describedby={problems.sendLaterAt ? 'compose-send-later-error' : undefined}
                onChange={(event) => set('sendLaterAt', event.target.value)}
              />
            </label>
            {problems.sendLaterAt && (
              <span id="compose-send-later-error" className="field-error" role="alert">
                {problems.sendLaterAt}
              </span>
            )}
          </fieldset>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <footer className="dialog-footer">
            <span className="draft-state" role="status" data-state={autosave.state}>
              {SAVE_LABELS[autosave.state](autosave.detail)}
            </span>
            <button type="submit" className="primary" disabled={sending}>
              {sending ? t('compose.sending') : draft.sendLaterAt ? t('compose.schedule') : t('compose.send')}
            </button>
            <button type="button" onClick={onClose}>
              {t('common.close')}
            </button>
            <button type="button" className="danger" onClick={onDiscard}>
              {t('compose.discard')}
            </button>
          </footer>
        </form>
      </div>
    </div>
  );
}
