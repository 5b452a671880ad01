import { LRUCache } from 'lru-cache';
import type { MailHeader } from '@letterbox/mime';

/** A mail's shown content, independent of which mail row points at the blob. */
export interface RenderedContent {
  headers: MailHeader[];
  text: string;
  html: string | null;
  truncated: boolean;
}

/**
 * Recently rendered mail content by storage key, least recently used evicted first,
 * bounded by an estimate of its memory; an entry over a quarter of it is not kept. Blobs are
 * content-addressed and never change, so an entry is never stale, and a newsletter stored
 * for many users renders once.
 */
export class RenderedContentCache {
  private readonly entries: LRUCache<string, RenderedContent>;

  constructor(maxBytes: number) {
    this.entries = new LRUCache({ maxSize: maxBytes, maxEntrySize: maxBytes / 4, sizeCalculation: estimateBytes });
  }

  get(key: string): RenderedContent | undefined {
    return this.entries.get(key);
  }

  set(key: string, content: RenderedContent): RenderedContent {
    this.entries.set(key, content);
    return content;
  }
}

/** JavaScript strings take two bytes a character. */
function estimateBytes(content: RenderedContent): number {
  const headerChars = content.headers.reduce((sum, header) => sum + header.name.length + header.value.length + 32, 0);
  return 2 * (content.text.length + (content.html?.length ?? 0) + headerChars) + 256;
}
