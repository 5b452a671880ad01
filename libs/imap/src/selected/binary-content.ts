import { locateBinarySection, type EncodedContent, type MimePart } from '@letterbox/mime';
import { ImapCommandError } from '../protocol/tokens';

/** An empty part, for a part number the message does not have: BINARY answers it as BODY[] does, with nothing. */
const MISSING: EncodedContent = { span: { start: 0, end: 0 }, encoding: '' };

/**
 * What BINARY[part] and BINARY.SIZE[part] decode (RFC 3516 4.2): a multipart has no content of its own, and a
 * transfer encoding the server cannot undo fails the FETCH with NO [UNKNOWN-CTE].
 */
export function binaryContentOf(tree: MimePart, part: number[]): EncodedContent {
  const located = locateBinarySection(tree, part);
  switch (located.kind) {
    case 'content':
      return located.content;
    case 'missing':
      return MISSING;
    case 'multipart':
      throw new ImapCommandError(`part ${part.join('.')} is a multipart: BINARY reads the parts within it`, 'NO');
    case 'unknown-encoding':
      throw new ImapCommandError(`part ${part.join('.')} has a Content-Transfer-Encoding (${located.encoding}) this server cannot decode`, 'NO', 'UNKNOWN-CTE');
  }
}
