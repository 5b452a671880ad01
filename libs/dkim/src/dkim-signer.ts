// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- mailauth declares no types for these internals, and every project that compiles this file (through this lib) must see ours
/// <reference path="./mailauth-internals.d.ts" />
import { createHash, sign, type KeyObject } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dkimBody } from 'mailauth/lib/dkim/body';
import { relaxedHeaders } from 'mailauth/lib/dkim/header/relaxed';
import { MessageParser } from 'mailauth/lib/dkim/message-parser';
import { formatSignatureHeaderLine, getSigningHeaderLines } from 'mailauth/lib/tools';
import type { DkimAlgorithm } from './dkim-key-pair';

/** A decrypted key a message is signed with. */
export interface DkimSigningKey {
  domain: string;
  selector: string;
  algorithm: DkimAlgorithm;
  privateKey: KeyObject;
}

/**
 * The headers a signature covers: who, what, when, the conversation and how the body is to be
 * read. Each is named once more than the message has it (oversigned), so a header added on the
 * way (a second From or Subject shown instead of the signed one) breaks the signature.
 */
export const SIGNED_HEADERS = [
  'From',
  'To',
  'Cc',
  'Subject',
  'Date',
  'Message-ID',
  'In-Reply-To',
  'References',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
] as const;

const CANONICALIZATION = 'relaxed/relaxed';

/** Hashes the body as it streams through (relaxed, SHA-256): nothing of it is kept. */
class BodyHashing extends MessageParser {
  private readonly hash = dkimBody('relaxed', 'sha256', false);
  bodyHash = '';

  override async nextChunk(chunk: Buffer): Promise<void> {
    this.hash.update(chunk);
  }

  override async finalChunk(): Promise<void> {
    this.bodyHash = this.hash.digest('base64');
  }
}

/**
 * The DKIM-Signature headers of a message, one per key (RSA and Ed25519 side by side, RFC 8463),
 * relaxed/relaxed, each ending in CRLF, to be prepended to the message as it was read. The
 * message streams through once; only its header is held. mailauth computes the canonical forms;
 * the h= list is built here, because mailauth's own signer names only the headers present.
 */
export async function dkimSignatureHeaders(message: Readable, keys: DkimSigningKey[], signTime = new Date()): Promise<string> {
  const parser = new BodyHashing();
  await pipeline(message, parser);
  const present = getSigningHeaderLines(parser.headers ? parser.headers.parsed : [], SIGNED_HEADERS.join(':'));
  // Names with no header left contribute nothing to the hash: the verifier finds none unused for them.
  const signing = { keys: [present.keys, ...SIGNED_HEADERS].filter((names) => names !== '').join(': '), headers: present.headers };
  return keys
    .map((key) => {
      const options = {
        signingDomain: key.domain,
        selector: key.selector,
        algorithm: key.algorithm,
        canonicalization: CANONICALIZATION,
        bodyHash: parser.bodyHash,
        signTime,
      };
      const { canonicalizedHeader, dkimHeaderOpts } = relaxedHeaders('DKIM', signing, options);
      // RFC 8463: Ed25519 signs the SHA-256 of the canonical header, RSA the header with SHA-256 itself.
      const signature =
        key.algorithm === 'rsa-sha256'
          ? sign('sha256', canonicalizedHeader, key.privateKey)
          : sign(null, createHash('sha256').update(canonicalizedHeader).digest(), key.privateKey);
      return `${formatSignatureHeaderLine('DKIM', { ...dkimHeaderOpts, b: signature.toString('base64') }, true)}\r\n`;
    })
    .join('');
}
