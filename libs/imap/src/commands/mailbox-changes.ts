import { MailboxNameTakenError, MailboxNotFoundError, mailboxNameProblem, SystemMailboxError } from '@letterbox/mail';
import { HIERARCHY_DELIMITER } from '../mailboxes/imap-mailboxes';
import { ImapCommandError } from '../protocol/tokens';

/**
 * The folder name a CREATE or RENAME asks for, as the webmail would take it. Folders have no hierarchy: one
 * trailing delimiter is taken as the hint RFC 3501 6.3.3 allows, any other is refused.
 */
export function newFolderName(asked: string): string {
  const name = asked.endsWith(HIERARCHY_DELIMITER) ? asked.slice(0, -HIERARCHY_DELIMITER.length) : asked;
  if (name.toUpperCase() === 'INBOX') throw new ImapCommandError('INBOX already exists', 'NO', 'ALREADYEXISTS');
  if (name.includes(HIERARCHY_DELIMITER)) {
    throw new ImapCommandError(`folders cannot hold folders: a name must not contain "${HIERARCHY_DELIMITER}"`, 'NO', 'CANNOT');
  }
  const problem = mailboxNameProblem(name);
  if (problem) throw new ImapCommandError(`a folder name ${problem}`, 'NO', 'CANNOT');
  return name;
}

/** The IMAP answer to what the folders lib refused; anything else is the server's failure. */
export function folderChangeRefused(name: string, action: 'created' | 'renamed' | 'deleted') {
  return (error: unknown): never => {
    if (error instanceof MailboxNameTakenError) throw new ImapCommandError(`a folder named "${error.mailboxName}" already exists`, 'NO', 'ALREADYEXISTS');
    if (error instanceof MailboxNotFoundError) throw new ImapCommandError(`no folder named "${name}"`, 'NO', 'NONEXISTENT');
    if (error instanceof SystemMailboxError) throw new ImapCommandError(`"${name}" is a system folder and cannot be ${action}`, 'NO', 'CANNOT');
    throw error;
  };
}
