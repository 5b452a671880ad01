import { SieveBudget, SieveBudgetExhausted } from './sieve-budget';
import { matchesAny } from './sieve-match';
import type { AddressPart, SieveFlag, SieveProgram, SieveStatement, SieveTest } from './sieve-program';

/** What a script is run on: one message, as one recipient receives it. */
export interface SieveMessage {
  /** The decoded values of the headers of that name (any case), in order. */
  header(name: string): string[];
  /** The addresses in the headers of that name, `local@domain`. */
  addresses(name: string): string[];
  /** The SMTP envelope: its sender (empty for the null sender) and this recipient. */
  envelope: { from: string; to: string };
  /** The body as text (HTML made text), as far as it was decoded. */
  bodyText: string;
  size: number;
  /**
   * Whether a redirect to this address may go out (not to the user's own, not past the hops allowed); absent: any may.
   * One that may not does nothing, and the implicit keep stays (RFC 5228 §2.10.6: a failed action keeps the mail).
   */
  mayRedirectTo?(address: string): boolean;
}

/** Where the mail goes: the inbox, a folder by its name, or nowhere (discard, reject). */
export type SieveDestination = { kind: 'inbox' } | { kind: 'folder'; name: string } | { kind: 'discarded'; reason?: string };

/** An out-of-office reply the script asks for (RFC 5230): sent, if the rules of RFC 3834 allow, by the one who stores the mail. */
export interface SieveVacation {
  reason: string;
  /** A sender is answered once in this many days at most. */
  days: number;
  subject?: string;
  from?: string;
  /** More addresses of the user's, besides the ones Letterbox knows. */
  addresses: string[];
}

export interface SieveOutcome {
  destination: SieveDestination;
  /** The flags the stored mail gets. */
  flags: SieveFlag[];
  vacation?: SieveVacation;
  /** The addresses the mail is redirected to (RFC 5228 §4.2), each once, lower-case: sent on unchanged by the one who stores it. */
  redirects?: string[];
  /** The run used its whole budget: it stopped there and the mail was kept in the inbox. */
  exhausted?: true;
}

/** Characters compared and tests evaluated that one run may spend: a few milliseconds of work at most. */
export const SIEVE_RUN_BUDGET = 4_000_000;

/**
 * Runs a compiled script on a message. Letterbox stores one copy of a mail per recipient: the
 * first folder the script files it into, else the inbox when it is kept (explicitly, or by the
 * implicit keep that discard, reject, and fileinto and redirect without :copy cancel), else nowhere;
 * and the addresses it is redirected to.
 */
export function runSieve(program: SieveProgram, message: SieveMessage, budgetUnits = SIEVE_RUN_BUDGET): SieveOutcome {
  const run = new Run(message, new SieveBudget(budgetUnits));
  try {
    run.statements(program.statements);
  } catch (error) {
    if (!(error instanceof StopScript)) {
      if (error instanceof SieveBudgetExhausted) return { destination: { kind: 'inbox' }, flags: [], exhausted: true };
      throw error;
    }
  }
  return run.outcome();
}

class StopScript extends Error {}

class Run {
  private flags = new Set<SieveFlag>();
  private readonly kept: Array<{ folder?: string; flags: SieveFlag[] }> = [];
  private implicitKeep = true;
  private rejected?: string;
  private vacation?: SieveVacation;
  private readonly redirects = new Set<string>();

  constructor(
    private readonly message: SieveMessage,
    private readonly budget: SieveBudget,
  ) {}

  statements(statements: SieveStatement[]): void {
    for (const statement of statements) this.statement(statement);
  }

  outcome(): SieveOutcome {
    const filed = this.kept.find((copy) => copy.folder !== undefined);
    const chosen = filed ?? this.kept[0] ?? (this.implicitKeep ? { flags: [...this.flags] } : undefined);
    const redirects = this.redirects.size > 0 ? { redirects: [...this.redirects] } : {};
    // A mail stored for no one is answered by no one: a reject says no, and a discard says nothing.
    if (!chosen) return { destination: { kind: 'discarded', ...(this.rejected !== undefined ? { reason: this.rejected } : {}) }, flags: [], ...redirects };
    return {
      destination: chosen.folder === undefined ? { kind: 'inbox' } : { kind: 'folder', name: chosen.folder },
      flags: chosen.flags,
      ...(this.vacation ? { vacation: this.vacation } : {}),
      ...redirects,
    };
  }

  private statement(statement: SieveStatement): void {
    this.budget.spend(1);
    switch (statement.kind) {
      case 'if': {
        const taken = statement.branches.find((branch) => branch.test === undefined || this.test(branch.test));
        if (taken) this.statements(taken.body);
        return;
      }
      case 'stop':
        throw new StopScript();
      case 'keep':
        this.kept.push({ flags: statement.flags ?? [...this.flags] });
        return;
      case 'fileinto':
        this.kept.push({ folder: statement.folder, flags: statement.flags ?? [...this.flags] });
        if (!statement.copy) this.implicitKeep = false;
        return;
      case 'discard':
        this.implicitKeep = false;
        return;
      case 'reject':
        this.implicitKeep = false;
        this.rejected = statement.reason;
        return;
      case 'redirect':
        if (this.message.mayRedirectTo && !this.message.mayRedirectTo(statement.address)) return;
        // The same address twice is one redirect (RFC 5228 §4.2.2).
        this.redirects.add(statement.address);
        if (!statement.copy) this.implicitKeep = false;
        return;
      case 'vacation': {
        const { kind: _vacation, ...asked } = statement;
        this.vacation ??= asked;
        return;
      }
      case 'flags':
        if (statement.change === 'set') this.flags = new Set(statement.flags);
        else if (statement.change === 'add') for (const flag of statement.flags) this.flags.add(flag);
        else for (const flag of statement.flags) this.flags.delete(flag);
        return;
    }
  }

  private test(test: SieveTest): boolean {
    this.budget.spend(1);
    const { message } = this;
    switch (test.kind) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'not':
        return !this.test(test.test);
      case 'allof':
        return test.tests.every((inner) => this.test(inner));
      case 'anyof':
        return test.tests.some((inner) => this.test(inner));
      case 'exists':
        return test.headers.every((name) => message.header(name).length > 0);
      case 'size':
        return test.over ? message.size > test.limit : message.size < test.limit;
      case 'header':
        return matchesAny(
          test.headers.flatMap((name) => message.header(name)),
          test.keys,
          test.match,
          this.budget,
        );
      case 'address':
        return matchesAny(
          test.headers.flatMap((name) => message.addresses(name).map((address) => addressPart(address, test.part))),
          test.keys,
          test.match,
          this.budget,
        );
      case 'envelope':
        return matchesAny(
          test.parts.map((part) => addressPart(message.envelope[part], test.part)),
          test.keys,
          test.match,
          this.budget,
        );
      case 'body':
        return matchesAny([message.bodyText], test.keys, test.match, this.budget);
    }
  }
}

function addressPart(address: string, part: AddressPart): string {
  if (part === 'all') return address;
  const at = address.lastIndexOf('@');
  if (part === 'localpart') return at < 0 ? address : address.slice(0, at);
  return at < 0 ? '' : address.slice(at + 1);
}
