// The pieces of mailauth's DKIM signer that its public dkimSign does not expose: it cannot
// oversign (name a header in h= once more than the message has it), which these allow.

declare module 'mailauth/lib/dkim/message-parser' {
  import { Writable } from 'node:stream';

  export interface ParsedHeaderLine {
    key: string | null;
    casedKey?: string;
    line: Buffer;
  }

  /** Splits a message streamed into it into its parsed header and its body's chunks. */
  export class MessageParser extends Writable {
    headers: { parsed: ParsedHeaderLine[]; original: Buffer } | false;
    nextChunk(chunk: Buffer): Promise<void>;
    finalChunk(): Promise<void>;
  }
}

declare module 'mailauth/lib/dkim/body' {
  export interface BodyHash {
    update(chunk: Buffer): void;
    digest(encoding: 'base64'): string;
  }
  export function dkimBody(canonicalization: 'relaxed' | 'simple', hashAlgorithm: 'sha256', maxBodyLength: false): BodyHash;
}

declare module 'mailauth/lib/dkim/header/relaxed' {
  import type { ParsedHeaderLine } from 'mailauth/lib/dkim/message-parser';

  export function relaxedHeaders(
    type: 'DKIM',
    signingHeaderLines: { keys: string; headers: ParsedHeaderLine[] },
    options: { signingDomain: string; selector: string; algorithm: string; canonicalization: string; bodyHash: string; signTime: Date },
  ): { canonicalizedHeader: Buffer; dkimHeaderOpts: Record<string, string | number> };
}

declare module 'mailauth/lib/tools' {
  import type { ParsedHeaderLine } from 'mailauth/lib/dkim/message-parser';

  export function getSigningHeaderLines(parsedHeaders: ParsedHeaderLine[], fieldNames: string): { keys: string; headers: ParsedHeaderLine[] };
  export function formatSignatureHeaderLine(type: 'DKIM', values: Record<string, string | number>, folded: boolean): string;
}
