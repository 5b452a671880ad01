import parseImap from 'imapflow/lib/handler/imap-parser';
import { parseBodystructure, parseEnvelope } from 'imapflow/lib/tools';
import { bodyStructureOf } from '../imap-body-structure';
import { envelopeOf } from '../imap-envelope';
import { serializeImapValue } from '../imap-value';
import { scanLayout } from '../scan-layout';

/** Shared by the mime tests: what an IMAP client (imapflow) reads of the ENVELOPE and BODYSTRUCTURE this library writes. */

export async function fetchResponse(
  message: Buffer,
  extensible = true,
): Promise<{ wire: Buffer; envelope: ReturnType<typeof parseEnvelope>; structure: ReturnType<typeof parseBodystructure> }> {
  const layout = await scanLayout(message);
  const wire = Buffer.concat([
    Buffer.from('* 1 FETCH (ENVELOPE '),
    serializeImapValue(envelopeOf(message.subarray(0, layout.headerEnd))),
    Buffer.from(extensible ? ' BODYSTRUCTURE ' : ' BODY '),
    serializeImapValue(bodyStructureOf(layout.tree, extensible)),
    Buffer.from(')'),
  ]);
  const response = await parseImap(...withoutLiterals(wire));
  const attributes = response.attributes?.[1] as Parameters<typeof parseEnvelope>[0];
  return { wire, envelope: parseEnvelope(attributes[1] as never), structure: parseBodystructure(attributes[3] as never) };
}

/** imapflow's stream takes literals out of a response (their markers stay) before its parser reads it: the same for one response. */
function withoutLiterals(wire: Buffer): [Buffer, { literals: Buffer[] }] {
  const literals: Buffer[] = [];
  const pieces: Buffer[] = [];
  const marker = /\{(\d+)\}\r\n/g;
  const text = wire.toString('latin1');
  let position = 0;
  for (let match = marker.exec(text); match; match = marker.exec(text)) {
    const start = match.index + match[0].length;
    pieces.push(wire.subarray(position, start));
    literals.push(wire.subarray(start, start + Number(match[1])));
    position = start + Number(match[1]);
    marker.lastIndex = position;
  }
  pieces.push(wire.subarray(position));
  return [Buffer.concat(pieces), { literals }];
}
