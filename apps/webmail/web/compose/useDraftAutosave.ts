import { useCallback, useEffect, useRef, useState } from 'react';
import { createDraft, saveDraft } from '../api/endpoints';
import { ApiError, messageOf } from '../api/http';
import { draftSaveBody, fileKey, unfinishedAddresses, type Draft, type DraftSync } from './draft';
import { withoutSignature } from './signature-slot';

export type SaveState = 'unsaved' | 'saving' | 'saved' | 'partial' | 'conflict' | 'failed';

const AUTOSAVE_MS = 1200;

/** What a save stores: the draft's words, recipients and files, not where the server keeps them. */
function signature(draft: Draft): string {
  const {
    server: _server,
    undoSeconds: _undo,
    sendLaterAt: _later,
    sendSeparately: _separately,
    choosingFrom: _choosing,
    signature: _signature,
    files,
    ...content
  } = draft;
  return JSON.stringify({ ...content, files: files.map(fileKey) });
}

/** Anything the user wrote: the identity's signature alone, put in by compose, is not worth a draft. */
const hasContent = (draft: Draft) =>
  signature({ ...draft, text: withoutSignature(draft.text, draft.signature), html: withoutSignature(draft.html, draft.signature) }) !==
    signature({ ...draft, to: '', cc: '', bcc: '', subject: '', text: '', html: '', files: [] }) || draft.original !== null;

/** A change to the draft, applied to it as it is when the change lands, not as some render saw it. */
export type DraftEdit = (draft: Draft) => Draft;

/**
 * Keeps the draft on the server while it is written: a save a moment after the last
 * change, one at a time, each naming the version it replaces. Another window having
 * saved first is a conflict, shown, never overwritten. `save` flushes before a send.
 */
export function useDraftAutosave(draft: Draft, onChange: (edit: DraftEdit) => void) {
  const [state, setState] = useState<SaveState>(draft.server ? 'saved' : 'unsaved');
  /** Why the last save failed, or the addresses it left out (state 'partial'). */
  const [detail, setDetail] = useState('');
  const latest = useRef(draft);
  latest.current = draft;
  const saved = useRef(draft.server ? signature(draft) : '');
  /**
   * The server copy as the last save left it. Saves name its version from here, not from a render: a render may
   * still show the draft from before that save ended, and a save naming that older version would be refused (412).
   */
  const synced = useRef<DraftSync | null>(draft.server);
  const inFlight = useRef<Promise<Draft> | null>(null);
  const removed = useRef<string[]>([]);
  const mounted = useRef(true);
  const sendingDirectly = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const save = useCallback(async (): Promise<Draft> => {
    while (inFlight.current) await inFlight.current.catch(() => undefined);
    const current: Draft = { ...latest.current, server: synced.current };
    if (current.server && signature(current) === saved.current) return current;
    const run = (async () => {
      setState('saving');
      const { body, newFiles } = draftSaveBody(current, removed.current);
      const answer = current.server ? await saveDraft(current.server.id, current.server.version, body) : await createDraft(body);
      const newIds = answer.attachments.slice(answer.attachments.length - newFiles.length).map((attachment) => attachment.id);
      const kept = new Set(answer.attachments.map((attachment) => attachment.id));
      const uploaded = Object.fromEntries(Object.entries(current.server?.uploaded ?? {}).filter(([, id]) => kept.has(id)));
      newFiles.forEach((file, index) => (uploaded[fileKey(file)] = newIds[index]));
      const ofFiles = new Set(Object.values(uploaded));
      const serverAttachments = answer.attachments
        .filter((attachment) => !ofFiles.has(attachment.id))
        .map(({ id, filename, size }) => ({ id, filename, size }));
      removed.current = [];
      saved.current = signature({ ...current, serverAttachments });
      const server: DraftSync = { id: answer.id, version: answer.version, uploaded };
      synced.current = server;
      latest.current = { ...latest.current, serverAttachments, server };
      // A save that ends after the window closed (the draft sent or discarded) changes nothing.
      if (mounted.current) onChange((edited) => ({ ...edited, serverAttachments, server }));
      return latest.current;
    })();
    inFlight.current = run;
    try {
      const next = await run;
      const leftOut = unfinishedAddresses(current);
      setDetail(leftOut.join(', '));
      setState(signature(latest.current) !== saved.current ? 'unsaved' : leftOut.length > 0 ? 'partial' : 'saved');
      return next;
    } catch (failure) {
      setDetail(messageOf(failure));
      setState(failure instanceof ApiError && failure.status === 412 ? 'conflict' : 'failed');
      throw failure;
    } finally {
      inFlight.current = null;
    }
  }, [onChange]);

  const current = signature(draft);
  useEffect(() => {
    if (current === saved.current || !hasContent(latest.current)) return;
    setState('unsaved');
    // A failed autosave is shown as such; the next change, or the send, tries again.
    const timer = setTimeout(() => {
      if (!sendingDirectly.current) void save().catch(() => undefined);
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [current, save]);

  /** An attachment held only by the server (a forward's, a reopened draft's) is dropped at the next save. */
  const removeServerAttachment = useCallback(
    (id: string) => {
      removed.current.push(id);
      onChange((current) => ({ ...current, serverAttachments: current.serverAttachments.filter((attachment) => attachment.id !== id) }));
    },
    [onChange],
  );

  /**
   * A draft not yet on the server is sent straight to the send API: no autosave may start meanwhile, whose new draft
   * would stay in Drafts beside the sent mail. A send that fails lets the next change save again.
   */
  const sendWithoutSaving = useCallback(async <T>(send: () => Promise<T>): Promise<T> => {
    sendingDirectly.current = true;
    try {
      return await send();
    } finally {
      sendingDirectly.current = false;
    }
  }, []);

  return { state, detail, save, removeServerAttachment, sendWithoutSaving };
}
