/**
 * Reading a bounce, bounded (lesson 9): only its first BOUNCE_READ_BYTES are ever read (a DSN's
 * report comes before the returned message it may carry), every step is one pass over them
 * (indexOf and split, no backtracking pattern over the input), and at most so many parts,
 * recipients and characters per field are kept. What cannot be read is no report, never an error.
 */
export const BOUNCE_READ_BYTES = 64 * 1024;
const MAX_PARTS = 16;
const MAX_RECIPIENTS = 100;
const MAX_FIELD_CHARS = 1000;

/** One recipient's block of a `message/delivery-status` part (RFC 3464 section 2.3). */
export interface RecipientReport {
  /** Final-Recipient (else Original-Recipient), lower-case, without its address type. */
  recipient: string;
  /** failed, delayed, delivered, relayed or expanded. */
  action: string;
  /** The enhanced status code, `5.1.1`. */
  status: string;
  /** Diagnostic-Code without its type (`550 5.1.1 user unknown`), else the status. */
  diagnostic: string;
}

/** What a bounce says: the DSN's recipient reports, or for a bounce that is no DSN, its text. */
export type BounceReport = { kind: 'dsn'; recipients: RecipientReport[] } | { kind: 'plain'; text: string };

export function readBounceReport(bytes: Buffer): BounceReport {
  const text = bytes.subarray(0, BOUNCE_READ_BYTES).toString('latin1');
  const { headers, body } = splitHead(text);
  const boundary = boundaryOf(headers.get('content-type') ?? '');
  if (boundary) {
    for (const part of partsOf(body, boundary)) {
      const head = splitHead(part);
      const type = (head.headers.get('content-type') ?? '').toLowerCase();
      if (type.startsWith('message/delivery-status') || type.startsWith('message/global-delivery-status')) {
        return { kind: 'dsn', recipients: recipientReports(head.body) };
      }
    }
  }
  return { kind: 'plain', text: body.slice(0, MAX_FIELD_CHARS * 4) };
}

/** Header fields (unfolded, names lower-case, the first of each kept) and what follows the blank line. */
function splitHead(text: string): { headers: Map<string, string>; body: string } {
  const crlf = text.indexOf('\r\n\r\n');
  const lf = text.indexOf('\n\n');
  const end = crlf !== -1 && (lf === -1 || crlf < lf) ? crlf : lf;
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + (end === crlf ? 4 : 2));
  return { headers: fields(head), body };
}

/** `Name: value` lines, continuation lines joined to the one before. */
function fields(block: string): Map<string, string> {
  const found = new Map<string, string>();
  let name: string | undefined;
  let value = '';
  const keep = () => {
    if (name !== undefined && !found.has(name)) found.set(name, value.trim().slice(0, MAX_FIELD_CHARS));
  };
  for (const line of block.split('\n')) {
    const bare = line.endsWith('\r') ? line.slice(0, -1) : line;
    if ((bare.startsWith(' ') || bare.startsWith('\t')) && name !== undefined) {
      if (value.length < MAX_FIELD_CHARS) value += ' ' + bare.trim();
      continue;
    }
    keep();
    const colon = bare.indexOf(':');
    name = colon > 0 ? bare.slice(0, colon).trim().toLowerCase() : undefined;
    value = colon > 0 ? bare.slice(colon + 1) : '';
  }
  keep();
  return found;
}

function boundaryOf(contentType: string): string | undefined {
  if (!contentType.toLowerCase().startsWith('multipart/')) return undefined;
  const at = contentType.toLowerCase().indexOf('boundary=');
  if (at === -1) return undefined;
  const rest = contentType.slice(at + 'boundary='.length);
  const boundary = rest.startsWith('"') ? rest.slice(1, rest.indexOf('"', 1) === -1 ? undefined : rest.indexOf('"', 1)) : rest.split(/[;\s]/, 1)[0];
  return boundary.length > 0 && boundary.length <= 70 ? boundary : undefined;
}

/** The body parts between the delimiter lines, in order, at most MAX_PARTS. */
function partsOf(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const parts: string[] = [];
  let at = body.indexOf(delimiter);
  while (at !== -1 && parts.length < MAX_PARTS) {
    const start = body.indexOf('\n', at);
    if (start === -1 || body.startsWith('--', at + delimiter.length)) break;
    const next = body.indexOf(`\n${delimiter}`, start);
    parts.push(body.slice(start + 1, next === -1 ? undefined : next));
    at = next === -1 ? -1 : next + 1;
  }
  return parts;
}

/** The per-recipient blocks of a delivery-status body: the blocks after the per-message one, split at blank lines. */
function recipientReports(body: string): RecipientReport[] {
  const reports: RecipientReport[] = [];
  const blocks = body.replace(/\r\n/g, '\n').split(/\n[ \t]*\n/);
  for (const block of blocks.slice(1)) {
    if (reports.length >= MAX_RECIPIENTS) break;
    const found = fields(block);
    const recipient = addressOf(found.get('final-recipient') ?? found.get('original-recipient'));
    const action = (found.get('action') ?? '').toLowerCase();
    const status = found.get('status')?.split(/\s/, 1)[0] ?? '';
    if (!recipient || !action || !/^[245]\.\d{1,3}\.\d{1,3}$/.test(status)) continue;
    const diagnostic = found.get('diagnostic-code');
    reports.push({ recipient, action, status, diagnostic: diagnostic ? withoutType(diagnostic) : status });
  }
  return reports;
}

/** `rfc822; carol@example.com` → `carol@example.com`. */
function addressOf(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const address = withoutType(field).replace(/^<|>$/g, '').toLowerCase();
  return address.includes('@') ? address : undefined;
}

function withoutType(field: string): string {
  const semicolon = field.indexOf(';');
  return (semicolon === -1 ? field : field.slice(semicolon + 1)).trim();
}
