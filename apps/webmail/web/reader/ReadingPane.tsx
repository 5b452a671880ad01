import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeMail, deleteMail, reportSpam, ruleSender } from '../api/endpoints';
import { messageOf } from '../api/http';
import type { AnswerMode, MailChanges, Mailbox, MailDetail, Receipt } from '../api/types';
import { formatAddresses, formatFullDate } from '../shared/format';
import { ErrorMessage, Loading } from '../shared/LoadStates';
import { AttachmentList } from './AttachmentList';
import { DeliveryStatus } from './DeliveryStatus';
import { hasRemoteContent } from './inline-images';
import { MailActions } from './MailActions';
import { mailLanguage } from './mail-language';
import { MailFrame } from './MailFrame';
import { ReceiptList } from './ReceiptList';
import { SenderWarning, VerifiedMark } from './SenderCheck';
import { SpamScore } from './SpamScore';
import { ThreadMessages } from './ThreadMessages';
import { useMail } from './useMail';

export interface PaneActions {
  toggleFlag(): void;
  markUnread(): void;
  remove(): void;
  answer(mode: AnswerMode): void;
}

interface Props {
  mailId: number;
  mailboxes: Mailbox[];
  receipts: Receipt[] | undefined;
  onBack(): void;
  /** After a change: the list and the counts show it. */
  onChanged(mailId: number, changes: MailChanges): void;
  onRemoved(mailId: number): void;
  onAnswer(mail: MailDetail, mode: AnswerMode): void;
  onEditDraft(mailId: number): void;
  registerActions(actions: PaneActions | null): void;
}

export function ReadingPane({ mailId, mailboxes, receipts, onBack, onChanged, onRemoved, onAnswer, onEditDraft, registerActions }: Props) {
  const { t } = useTranslation();
  const { mail, html, error, loading, update, retry } = useMail(mailId);
  const [remoteImages, setRemoteImages] = useState(false);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const markedSeen = useRef<number | null>(null);

  useEffect(() => {
    setRemoteImages(false);
    setActionError(null);
  }, [mailId]);

  // Opening a mail reads it; focus goes to its subject so a screen reader starts there.
  useEffect(() => {
    if (!mail) return;
    heading.current?.focus();
    if (!mail.seen && markedSeen.current !== mail.id) {
      markedSeen.current = mail.id;
      void apply({ seen: true });
    }
    // Once per opened mail, not on every change to it.
  }, [mail?.id]);

  async function apply(changes: MailChanges): Promise<boolean> {
    if (!mail) return false;
    setBusy(true);
    setActionError(null);
    try {
      await changeMail(mail.id, changes);
      update(changes as Partial<MailDetail>);
      onChanged(mail.id, changes);
      return true;
    } catch (failure) {
      setActionError(messageOf(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function report(spam: boolean) {
    if (!mail) return;
    setBusy(true);
    setActionError(null);
    try {
      const { mailboxId } = await reportSpam(mail.id, spam);
      onChanged(mail.id, { mailboxId });
      onRemoved(mail.id);
    } catch (failure) {
      setActionError(messageOf(failure));
      setBusy(false);
    }
  }

  /** Blocking the sender puts this mail in Spam too, and allowing them takes it out, as Report spam and Not spam do. */
  async function judgeSender(list: 'blocked' | 'allowed') {
    if (!mail) return;
    setBusy(true);
    setActionError(null);
    try {
      await ruleSender(list, mail.from.address);
      const inSpam = mailboxes.find((mailbox) => mailbox.id === mail.mailboxId)?.role === 'spam';
      if ((list === 'blocked') !== inSpam) await report(list === 'blocked');
      else setBusy(false);
    } catch (failure) {
      setActionError(messageOf(failure));
      setBusy(false);
    }
  }

  async function remove() {
    if (!mail) return;
    setBusy(true);
    setActionError(null);
    try {
      await deleteMail(mail.id);
      onRemoved(mail.id);
    } catch (failure) {
      setActionError(messageOf(failure));
      setBusy(false);
    }
  }

  const actions = useRef<PaneActions>({ toggleFlag: () => {}, markUnread: () => {}, remove: () => {}, answer: () => {} });
  actions.current = {
    toggleFlag: () => mail && void apply({ flagged: !mail.flagged }),
    markUnread: () => mail && void apply({ seen: false }),
    remove: () => void remove(),
    answer: (mode) => mail && onAnswer(mail, mode),
  };
  useEffect(() => {
    registerActions({
      toggleFlag: () => actions.current.toggleFlag(),
      markUnread: () => actions.current.markUnread(),
      remove: () => actions.current.remove(),
      answer: (mode) => actions.current.answer(mode),
    });
    return () => registerActions(null);
  }, [registerActions]);

  if (loading) return <Loading label={t('reader.opening')} />;
  if (error) return <ErrorMessage message={error} onRetry={retry} />;
  if (!mail) return null;

  const remote = html !== null && hasRemoteContent(html);
  const role = mailboxes.find((mailbox) => mailbox.id === mail.mailboxId)?.role;
  const isDraft = role === 'drafts';
  const language = mailLanguage(mail.headers);
  // The body right under the header, where the eye is; what is about the mail, and the rest of its conversation, follow it.
  return (
    <article className="reader-content" aria-labelledby="mail-subject">
      <MailActions
        mail={mail}
        mailboxes={mailboxes}
        busy={busy}
        onBack={onBack}
        onAnswer={(mode) => onAnswer(mail, mode)}
        onEditDraft={isDraft ? () => onEditDraft(mail.id) : undefined}
        onFlag={(flagged) => void apply({ flagged })}
        onSeen={(seen) => void apply({ seen })}
        onMove={(mailboxId) => void apply({ mailboxId }).then((moved) => moved && onRemoved(mail.id))}
        onReportSpam={(spam) => void report(spam)}
        onJudgeSender={(list) => void judgeSender(list)}
        onDelete={() => void remove()}
      />
      {actionError && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      <SenderWarning authentication={mail.authentication} from={mail.from} />
      <header className="mail-header">
        <h2 id="mail-subject" ref={heading} tabIndex={-1}>
          {mail.subject || t('common.noSubject')}
        </h2>
        <dl>
          <dt>{t('reader.from')}</dt>
          <dd>
            {formatAddresses([mail.from])}
            <VerifiedMark authentication={mail.authentication} from={mail.from} />
          </dd>
          <dt>{t('reader.to')}</dt>
          <dd>{formatAddresses(mail.to) || '—'}</dd>
          {mail.cc.length > 0 && (
            <>
              <dt>{t('reader.cc')}</dt>
              <dd>{formatAddresses(mail.cc)}</dd>
            </>
          )}
          <dt>{t('reader.date')}</dt>
          <dd>
            <time dateTime={mail.receivedAt}>{formatFullDate(mail.receivedAt)}</time>
          </dd>
          {mail.spam && <SpamScore verdict={mail.spam} />}
        </dl>
      </header>
      {remote && !remoteImages && (
        <p className="remote-notice">
          {t('reader.remoteBlocked')}{' '}
          <button type="button" onClick={() => setRemoteImages(true)}>
            {t('reader.showRemote')}
          </button>
        </p>
      )}
      {html !== null ? (
        <MailFrame key={`${mail.id}-${remoteImages}`} html={html} remoteImages={remoteImages} lang={language} />
      ) : (
        <pre className="mail-text" lang={language}>
          {mail.text}
        </pre>
      )}
      {mail.truncated && <p className="notice">{t('reader.truncated')}</p>}
      <AttachmentList attachments={mail.attachments} />
      {role === 'sent' && <DeliveryStatus mailId={mail.id} />}
      {receipts && <ReceiptList receipts={receipts} />}
      <ThreadMessages threadId={mail.threadId} openMailId={mail.id} />
    </article>
  );
}
