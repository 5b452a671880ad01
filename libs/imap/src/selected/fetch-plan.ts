import type { FetchItem, FetchSection } from '../protocol/fetch-attributes';

/** A BODY[section]<partial> to answer: the name it is answered under, and whether reading it sets \Seen. */
export interface SectionItem {
  kind: 'section';
  /** `BODY[1.HEADER.FIELDS (FROM)]<0>`, `RFC822.HEADER`. */
  label: string;
  section: FetchSection;
  partial?: { offset: number; length: number };
  setsSeen: boolean;
}

/** A BINARY[part]<partial> (RFC 3516): a part's content decoded from its transfer encoding. */
export interface BinaryItem {
  kind: 'binary';
  /** `BINARY[2]<0>`. */
  label: string;
  part: number[];
  partial?: { offset: number; length: number };
  setsSeen: boolean;
}

/** A BINARY.SIZE[part]: the length of that decoded content. */
export interface BinarySizeItem {
  kind: 'binary-size';
  label: string;
  part: number[];
}

/** One value of a FETCH response, in the order the client asked. */
export type PlannedItem =
  { kind: 'FLAGS' | 'UID' | 'INTERNALDATE' | 'RFC822.SIZE' | 'MODSEQ' | 'ENVELOPE' | 'BODYSTRUCTURE' | 'BODY' } | SectionItem | BinaryItem | BinarySizeItem;

/** What a FETCH reads of each message: its items, whether it needs the MIME tree or only the envelope, and whether it sets \Seen. */
export interface FetchPlan {
  items: PlannedItem[];
  needsTree: boolean;
  /** ENVELOPE without anything else of the tree: read from the row alone when the tree records it. */
  needsEnvelopeOnly: boolean;
  setsSeen: boolean;
}

const WHOLE: FetchSection = { part: [] };

/**
 * The items of a FETCH as answered: the RFC822 forms are sections (RFC 3501 6.4.5), UID first for UID FETCH
 * and once QRESYNC is on (RFC 7162 3.2.4: the client matches responses by UID), and MODSEQ when the client
 * asked CHANGEDSINCE.
 */
export function planFetch(items: FetchItem[], options: { withUid: boolean; modseq: boolean }): FetchPlan {
  const planned = items.map(planItem);
  const kinds = new Set(planned.map((item) => item.kind));
  const all: PlannedItem[] = [
    ...(options.withUid && !kinds.has('UID') ? [{ kind: 'UID' as const }] : []),
    ...unique(planned),
    ...(options.modseq && !kinds.has('MODSEQ') ? [{ kind: 'MODSEQ' as const }] : []),
  ];
  const setsSeen = all.some((item) => (item.kind === 'section' || item.kind === 'binary') && item.setsSeen);
  const needsTree = all.some((item) => ['BODYSTRUCTURE', 'BODY', 'section', 'binary', 'binary-size'].includes(item.kind));
  const needsEnvelopeOnly = !needsTree && kinds.has('ENVELOPE');
  // A client that sets \Seen by reading is told the new flags in the same response.
  if (setsSeen && !kinds.has('FLAGS')) all.push({ kind: 'FLAGS' });
  return { items: all, needsTree, needsEnvelopeOnly, setsSeen };
}

function planItem(item: FetchItem): PlannedItem {
  switch (item.kind) {
    case 'RFC822':
      return { kind: 'section', label: 'RFC822', section: WHOLE, setsSeen: true };
    case 'RFC822.HEADER':
      return { kind: 'section', label: 'RFC822.HEADER', section: { part: [], text: 'HEADER' }, setsSeen: false };
    case 'RFC822.TEXT':
      return { kind: 'section', label: 'RFC822.TEXT', section: { part: [], text: 'TEXT' }, setsSeen: true };
    case 'BODY[]':
      return {
        kind: 'section',
        label: `BODY[${sectionSpec(item.section)}]${originOf(item.partial)}`,
        section: item.section,
        ...(item.partial ? { partial: item.partial } : {}),
        setsSeen: !item.peek,
      };
    case 'BINARY[]':
      // The origin is named as for BODY[] (RFC 3516 4.2's BINARY[section-binary]<number>), which clients match on.
      return {
        kind: 'binary',
        label: `BINARY[${item.section.part.join('.')}]${originOf(item.partial)}`,
        part: item.section.part,
        ...(item.partial ? { partial: item.partial } : {}),
        setsSeen: !item.peek,
      };
    case 'BINARY.SIZE':
      return { kind: 'binary-size', label: `BINARY.SIZE[${item.section.part.join('.')}]`, part: item.section.part };
    default:
      return { kind: item.kind };
  }
}

const originOf = (partial?: { offset: number }) => (partial ? `<${partial.offset}>` : '');

/** A section as the response names it: `1.2.HEADER.FIELDS (FROM TO)`. */
export function sectionSpec(section: FetchSection): string {
  const text = section.text ? `${section.text}${section.fields ? ` (${section.fields.join(' ')})` : ''}` : '';
  return [section.part.join('.'), text].filter((piece) => piece !== '').join('.');
}

/** Each item once: `FLAGS FLAGS` is answered with one FLAGS. */
function unique(items: PlannedItem[]): PlannedItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = 'label' in item ? item.label : item.kind;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
