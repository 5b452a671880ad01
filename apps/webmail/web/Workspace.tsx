import { lazy, startTransition, Suspense, useCallback, useEffect, useMemo, useRef, useState, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import { changeMails, deleteDraft, fetchDraft, reportSpamOf, startBulkChange, undoBulkChange, type BulkSelection } from './api/endpoints';
import { messageOf } from './api/http';
import type { AnswerMode, BulkChange, MailChanges, MailDetail, SendView, Session } from './api/types';
import { answerDraft } from './compose/answer';
import { Compose } from './compose/Compose';
import type { DraftEdit } from './compose/useDraftAutosave';
import { Loading } from './shared/LoadStates';
import { draftFromServer, emptyDraft, type Draft } from './compose/draft';
import { undoneDraft } from './compose/undone-draft';
import { ScheduledSends } from './compose/ScheduledSends';
import { SendTracker } from './compose/SendTracker';
import { useScheduledSends } from './compose/useScheduledSends';
import { useSendTracking } from './compose/useSendTracking';
import { useLiveEvents, type LiveEvent } from './live/useLiveEvents';
import { switchLanguage } from './i18n/i18n';
import { mailboxName } from './mailboxes/mailbox-name';
import { MailboxList } from './mailboxes/MailboxList';
import { SidebarDrawer } from './mailboxes/SidebarDrawer';
import { UnlockMailbox } from './mailboxes/UnlockMailbox';
import { useMailboxes } from './mailboxes/useMailboxes';
import { MailListToolbar } from './mails/MailListToolbar';
import { followBulkChange, markReadProgress } from './mails/follow-bulk-change';
import { MailListView } from './mails/MailListView';
import { SelectionBar } from './mails/SelectionBar';
import { DEFAULT_LIST_OPTIONS, useMailList, type ListItem, type ListOptions } from './mails/useMailList';
import { ReadingPane, type PaneActions } from './reader/ReadingPane';
import { UsageMeter } from './session/UsageMeter';
import { useMe } from './session/useMe';
import { navigate, parsePage, usePage, useRoute } from './shared/route';
import { useShortcuts } from './shared/shortcuts';
import { ShortcutHelp } from './ShortcutHelp';
import { SkipLink } from './SkipLink';
import { TopBar } from './TopBar';

/* Pages most visits never open, loaded when first opened: the inbox's first paint runs less script on a phone. */
const Settings = lazy(() => import('./settings/Settings').then((module) => ({ default: module.Settings })));
const AdminArea = lazy(() => import('./admin/AdminArea').then((module) => ({ default: module.AdminArea })));

interface Props {
  session: Session;
  draft: Draft | null;
  composing: boolean;
  /** A new draft (null: none), or an edit of the one open, applied to it as it is then. */
  onDraft(draft: SetStateAction<Draft | null>): void;
  onComposing(open: boolean): void;
  onSignOut(): void;
  /** A new token for the same user (after a password change). */
  onSession(session: Session): void;
  /** Every session ended on the server (this one too): forget it without asking the server again. */
  onSessionsEnded(): void;
}

const OFFLINE_POLL_MS = 30_000;

/** The signed-in webmail: mailboxes, the list, the reading pane, compose and live updates. */
export function Workspace({ session, draft, composing, onDraft, onComposing, onSignOut, onSession, onSessionsEnded }: Props) {
  const { t } = useTranslation();
  const route = useRoute();
  const page = usePage();
  const { me, refresh: refreshMe } = useMe();
  const { mailboxes, error: mailboxError, refresh: refreshMailboxes } = useMailboxes();
  const [options, setOptions] = useState<ListOptions>(DEFAULT_LIST_OPTIONS);
  const searchRef = useRef<HTMLInputElement>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  const paneActions = useRef<PaneActions | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  const mailbox = mailboxes?.find((candidate) => candidate.id === route.mailboxId) ?? null;
  const sentView = mailbox?.role === 'sent';
  const list = useMailList(mailbox?.id ?? null, options, sentView);
  const filtered = options.unreadOnly || options.flaggedOnly || options.withAttachments || options.search !== '';
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const lastChecked = useRef<number | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);
  const [bulkError, setBulkError] = useState<string | null>(null);
  const [bulkProgress, setBulkProgress] = useState<{ change: BulkChange; marking: 'read' | 'unread' } | null>(null);
  /** The last "Mark all as read", finished, while its Undo is offered. */
  const [markedAllRead, setMarkedAllRead] = useState<BulkChange | null>(null);

  // A selection belongs to the list it was made in, and so does the offer to undo.
  useEffect(() => {
    setChecked(new Set());
    setMarkedAllRead(null);
  }, [mailbox?.id, options]);

  // No mailbox in the address (or one that is gone): the inbox. Asked of the address itself, since a hash change
  // may render the new route before the new page (two states, set by two listeners).
  useEffect(() => {
    if (!mailboxes || mailbox || parsePage(location.hash).kind !== 'mail') return;
    const inbox = mailboxes.find((candidate) => candidate.role === 'inbox') ?? mailboxes[0];
    // A transition, as the mailboxes' first answer is: the whole workspace redrawn in slices, not one long task.
    if (inbox) startTransition(() => navigate({ mailboxId: inbox.id, mailId: null }, true));
  }, [mailboxes, mailbox, page.kind]);

  // The account's saved language wins over the browser's once the profile is known.
  const savedLanguage = me?.locale;
  useEffect(() => {
    if (savedLanguage) switchLanguage(savedLanguage);
  }, [savedLanguage]);

  const mailboxTitle = mailbox ? mailboxName(mailbox) : null;
  useEffect(() => {
    document.title = mailbox ? `${mailboxTitle}${mailbox.unreadCount ? ` (${mailbox.unreadCount})` : ''} – Letterbox` : 'Letterbox';
  }, [mailbox, mailboxTitle]);

  const listRef = useRef(list);
  listRef.current = list;
  const routeRef = useRef(route);
  routeRef.current = route;

  const onLiveEvent = useCallback(
    (event: LiveEvent) => {
      void refreshMailboxes();
      if (event.type !== 'mail.updated') void refreshMe();
      const current = listRef.current;
      const shown = new Set(current.items.map((item) => item.id));
      const mailboxId = routeRef.current.mailboxId;
      const concernsList =
        event.type === 'resync' ||
        event.type === 'mails.changed' ||
        (event.type === 'mail.created' && (event.mailboxId === mailboxId || event.mailboxId === undefined)) ||
        ((event.type === 'mail.updated' || event.type === 'mail.deleted') && (event.mailIds ?? []).some((id) => shown.has(id)));
      if (concernsList) void current.refresh();
      if (event.type === 'mail.deleted' && routeRef.current.mailId !== null && (event.mailIds ?? []).includes(routeRef.current.mailId)) {
        navigate({ mailboxId, mailId: null }, true);
      }
    },
    [refreshMailboxes, refreshMe],
  );
  const live = useLiveEvents(session.accessToken, onLiveEvent);

  // Without the stream, the counts and the list are still brought up to date now and then.
  useEffect(() => {
    if (live !== 'offline') return;
    const timer = setInterval(() => onLiveEvent({ type: 'resync' }), OFFLINE_POLL_MS);
    return () => clearInterval(timer);
  }, [live, onLiveEvent]);

  const afterDraftsChanged = useCallback(() => {
    void refreshMailboxes();
    if (sentView || mailbox?.role === 'drafts') void listRef.current.refresh();
  }, [refreshMailboxes, sentView, mailbox?.role]);
  const scheduled = useScheduledSends(afterDraftsChanged);
  const refreshScheduled = scheduled.refresh;
  const afterSend = useCallback(() => {
    afterDraftsChanged();
    void refreshScheduled();
  }, [afterDraftsChanged, refreshScheduled]);
  const tracking = useSendTracking(afterSend);

  // A row opens in the mailbox being shown (a conversation's newest mail may lie in another).
  const open = useCallback((mail: ListItem) => navigate({ mailboxId: routeRef.current.mailboxId ?? mail.mailboxId, mailId: mail.id }), []);

  /** Ticks a row; with Shift, every row from the last ticked one to it. */
  const toggleChecked = useCallback((item: ListItem, range = false) => {
    const items = listRef.current.items;
    const from = items.findIndex((candidate) => candidate.id === lastChecked.current);
    const to = items.findIndex((candidate) => candidate.id === item.id);
    const span = range && from !== -1 ? items.slice(Math.min(from, to), Math.max(from, to) + 1) : [item];
    lastChecked.current = item.id;
    setChecked((current) => {
      const next = new Set(current);
      const turnOn = !current.has(item.id);
      for (const one of span) {
        if (turnOn) next.add(one.id);
        else next.delete(one.id);
      }
      return next;
    });
  }, []);

  /** The ticked rows, as whole conversations when they are shown. */
  function checkedSelection(): BulkSelection {
    const items = listRef.current.items.filter((item) => checked.has(item.id));
    return options.conversations ? { threadIds: items.map((item) => item.threadId) } : { ids: items.map((item) => item.id) };
  }

  /** One request for every ticked row. */
  async function bulk(change: MailChanges | { delete: true }) {
    const chosen = checkedSelection();
    await busyWith(async () => {
      await changeMails(chosen, change);
      setChecked(new Set());
    });
  }

  async function reportChecked(spam: boolean) {
    const chosen = checkedSelection();
    await busyWith(async () => {
      await reportSpamOf(chosen, spam);
      setChecked(new Set());
    });
  }

  /** Every unread mail of the mailbox marked read: the server does it in slices, and the line under the list counts them. */
  async function markAllRead(mailboxId: number) {
    await busyWith(async () => {
      const ended = await followBulkChange(await startBulkChange({ mailboxId, seen: false }, { seen: true }), (change) =>
        setBulkProgress({ change, marking: 'read' }),
      );
      if (ended.status === 'failed') throw new Error(ended.error ?? t('list.markAllReadFailed'));
      if (ended.done > 0) setMarkedAllRead(ended);
    });
  }

  /** What "Mark all as read" marked becomes unread again. */
  async function undoMarkAllRead(change: BulkChange) {
    await busyWith(async () => {
      const ended = await followBulkChange(await undoBulkChange(change.id), (undo) => setBulkProgress({ change: undo, marking: 'unread' }));
      if (ended.status === 'failed') throw new Error(ended.error ?? t('list.undoFailed'));
    });
  }

  /** Any change made from the list ends the offer to undo the last one. */
  async function busyWith(change: () => Promise<void>) {
    setBulkBusy(true);
    setBulkError(null);
    setMarkedAllRead(null);
    try {
      await change();
      await Promise.all([listRef.current.refresh(), refreshMailboxes()]);
    } catch (failure) {
      setBulkError(messageOf(failure));
    } finally {
      setBulkBusy(false);
      setBulkProgress(null);
    }
  }
  // Focus goes to the row of the mail just read, where the list was left: the list does not scroll to it (on a phone the
  // list comes back as it was).
  const back = useCallback(() => {
    const read = routeRef.current.mailId;
    navigate({ mailboxId: routeRef.current.mailboxId, mailId: null });
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`.mail-row[data-mail-id="${read}"], .mail-row[aria-current="true"], .mail-row`)?.focus({ preventScroll: true }),
    );
  }, []);

  const onChanged = useCallback(
    (mailId: number, changes: MailChanges) => {
      if (changes.mailboxId !== undefined) return;
      listRef.current.patch(mailId, changes);
      if (changes.seen !== undefined) void refreshMailboxes();
    },
    [refreshMailboxes],
  );

  const onRemoved = useCallback(
    (mailId: number) => {
      const items = listRef.current.items;
      const index = items.findIndex((item) => item.id === mailId);
      const next = items[index + 1] ?? items[index - 1];
      listRef.current.remove(mailId);
      void refreshMailboxes();
      navigate({ mailboxId: routeRef.current.mailboxId, mailId: next && index >= 0 ? next.id : null }, true);
    },
    [refreshMailboxes],
  );

  const registerActions = useCallback((actions: PaneActions | null) => {
    paneActions.current = actions;
  }, []);

  function step(offset: number) {
    const items = list.items;
    if (items.length === 0) return;
    const index = items.findIndex((item) => item.id === route.mailId);
    const next = items[index === -1 ? 0 : Math.min(items.length - 1, Math.max(0, index + offset))];
    if (next.id === route.mailId) return;
    if (index === -1 && offset < 0) return;
    open(next);
    if (index + offset >= items.length - 3) list.loadMore();
  }

  const changeDraft = useCallback((edit: DraftEdit) => onDraft((current) => current && edit(current)), [onDraft]);

  // A kept reply or forward stays in Drafts (autosaved); `c` is always a new message.
  const startCompose = useCallback(() => {
    if (!draft || draft.original) onDraft(emptyDraft());
    onComposing(true);
  }, [draft, onDraft, onComposing]);

  const answer = useCallback(
    (mail: MailDetail, mode: AnswerMode) => {
      onDraft(answerDraft(mail, mode, session.user.email));
      onComposing(true);
    },
    [onDraft, onComposing, session.user.email],
  );

  const editDraft = useCallback(
    async (mailId: number) => {
      try {
        onDraft(draftFromServer(await fetchDraft(mailId)));
        onComposing(true);
      } catch (failure) {
        setBulkError(messageOf(failure));
      }
    },
    [onDraft, onComposing],
  );

  /** The row the keyboard is on: the open mail, else the focused row. */
  function currentRow(): ListItem | undefined {
    const items = list.items;
    const focused = Number((document.activeElement as HTMLElement | null)?.dataset?.mailId);
    return items.find((item) => item.id === route.mailId) ?? items.find((item) => item.id === focused);
  }

  useShortcuts(
    {
      j: () => step(1),
      k: () => step(-1),
      c: (event) => {
        event.preventDefault();
        startCompose();
      },
      '/': (event) => {
        event.preventDefault();
        searchRef.current?.focus();
      },
      '?': () => setHelpOpen((open) => !open),
      s: () => paneActions.current?.toggleFlag(),
      '#': () => paneActions.current?.remove(),
      u: () => paneActions.current?.markUnread(),
      // The key must not also be typed into the compose window that opens.
      r: (event) => {
        event.preventDefault();
        paneActions.current?.answer('reply');
      },
      a: (event) => {
        event.preventDefault();
        paneActions.current?.answer('replyAll');
      },
      f: (event) => {
        event.preventDefault();
        paneActions.current?.answer('forward');
      },
      x: () => {
        const item = currentRow();
        if (item) toggleChecked(item);
      },
      Escape: () => {
        if (route.mailId !== null) back();
      },
    },
    !composing && !drawerOpen && page.kind === 'mail',
  );

  function sent(send: SendView, sentDraft: Draft) {
    tracking.track(send, sentDraft);
    onDraft(null);
    onComposing(false);
    void refreshMailboxes();
    void refreshScheduled();
  }

  async function undo(item: (typeof tracking.sends)[number]) {
    if (await tracking.undo(item.send.id)) {
      // Back to the compose window with everything as it was, as the draft the Sent copy became:
      // a Discard or a new send then takes that copy out of Drafts.
      onDraft(await undoneDraft(item.send, item.draft));
      onComposing(true);
    }
  }

  const openSummary = useMemo(() => list.items.find((item) => item.id === route.mailId), [list.items, route.mailId]);

  return (
    <div className="app">
      <SkipLink />
      <TopBar
        user={session.user}
        me={me}
        page={page}
        live={live}
        drawer={{ open: drawerOpen, buttonRef: menuButton, onToggle: () => setDrawerOpen((open) => !open) }}
        onCompose={startCompose}
        onSignOut={onSignOut}
      />
      <Suspense fallback={<Loading />}>
        {page.kind === 'settings' && (
          <Settings user={session.user} me={me} mailboxes={mailboxes} onChanged={refreshMe} onSession={onSession} onSessionsEnded={onSessionsEnded} />
        )}
        {page.kind === 'admin' && <AdminArea section={page.section} me={me} />}
      </Suspense>
      <div className="workspace" data-view={route.mailId === null ? 'list' : 'reader'} hidden={page.kind !== 'mail'}>
        <SidebarDrawer open={drawerOpen} label={t('mailbox.navigation')} opener={menuButton} onClose={closeDrawer}>
          {/* The scheduled mails right under the folders: the foot of the sidebar is where the send tracker shows. */}
          <div>
            <MailboxList
              mailboxes={mailboxes}
              error={mailboxError}
              currentId={route.mailboxId}
              onRetry={() => void refreshMailboxes()}
              onChanged={refreshMailboxes}
            />
            <ScheduledSends sends={scheduled.sends} busy={scheduled.busy} error={scheduled.error} onCancel={(send) => void scheduled.cancel(send)} />
          </div>
          {me?.usage && <UsageMeter usage={me.usage} />}
          <ShortcutHelp open={helpOpen} onToggle={setHelpOpen} />
        </SidebarDrawer>
        <main className="mail-panes" id="main" tabIndex={-1}>
          <section className="list-pane" aria-label={t('list.region')}>
            <MailListToolbar options={options} folderName={mailboxTitle ?? t('list.thisFolder')} onChange={setOptions} searchRef={searchRef} />
            {mailbox?.locked ? (
              <UnlockMailbox key={mailbox.id} mailbox={mailbox} onUnlocked={() => void Promise.all([refreshMailboxes(), listRef.current.refresh()])} />
            ) : (
              <MailListView
                title={options.search && !options.searchFolderOnly ? t('list.searchResults') : (mailboxTitle ?? t('list.mail'))}
                list={list}
                selectedId={route.mailId}
                sentView={sentView}
                filtered={filtered}
                checked={checked}
                onCheck={toggleChecked}
                onOpen={open}
                actions={
                  <>
                    {checked.size > 0 && mailboxes ? (
                      <SelectionBar
                        count={checked.size}
                        mailboxes={mailboxes}
                        currentMailboxId={mailbox?.id ?? null}
                        busy={bulkBusy}
                        onRead={(seen) => void bulk({ seen })}
                        onFlag={(flagged) => void bulk({ flagged })}
                        onMove={(mailboxId) => void bulk({ mailboxId })}
                        onReportSpam={(spam) => void reportChecked(spam)}
                        inSpam={mailbox?.role === 'spam'}
                        onDelete={() => void bulk({ delete: true })}
                        onClear={() => setChecked(new Set())}
                      />
                    ) : (
                      !!mailbox?.unreadCount &&
                      list.items.length > 0 &&
                      !options.search && (
                        <button type="button" className="link mark-all-read" disabled={bulkBusy} onClick={() => void markAllRead(mailbox.id)}>
                          {t('list.markAllRead')}
                        </button>
                      )
                    )}
                    {bulkProgress && (
                      <p className="bulk-progress" role="status">
                        {markReadProgress(bulkProgress.change, bulkProgress.marking)}
                      </p>
                    )}
                    {markedAllRead && !bulkBusy && (
                      <p className="bulk-progress" role="status">
                        {t('list.markedRead', { count: markedAllRead.done })}{' '}
                        <button type="button" className="link" onClick={() => void undoMarkAllRead(markedAllRead)}>
                          {t('common.undo')}
                        </button>
                      </p>
                    )}
                    {bulkError && (
                      <p className="error" role="alert">
                        {bulkError}
                      </p>
                    )}
                  </>
                }
              />
            )}
          </section>
          <section className="reader" aria-label={t('list.readingPane')}>
            {route.mailId !== null && mailboxes ? (
              <ReadingPane
                key={route.mailId}
                mailId={route.mailId}
                mailboxes={mailboxes}
                receipts={sentView ? openSummary?.receiptConfirm : undefined}
                onBack={back}
                onChanged={onChanged}
                onRemoved={onRemoved}
                onAnswer={answer}
                onEditDraft={(mailId) => void editDraft(mailId)}
                registerActions={registerActions}
              />
            ) : (
              <p className="reader-empty">{t('list.selectMail')}</p>
            )}
          </section>
        </main>
      </div>
      {tracking.sends.length > 0 && <SendTracker sends={tracking.sends} onUndo={(item) => void undo(item)} onDismiss={tracking.dismiss} />}
      {composing && draft && (
        <Compose
          draft={draft}
          onChange={changeDraft}
          onSent={sent}
          onClose={() => onComposing(false)}
          onDiscard={() => {
            if (draft.server) void deleteDraft(draft.server.id).then(afterSend, (failure: unknown) => setBulkError(messageOf(failure)));
            onDraft(null);
            onComposing(false);
          }}
        />
      )}
    </div>
  );
}
