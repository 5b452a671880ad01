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
 * bounded by an estimate of its memory. Blobs are content-addressed and never change,
 * so an entry is never stale, and a newsletter stored for many users renders once.
 */
export class RenderedContentCache {
  private readonly entries = new Map<string, { content: RenderedContent; bytes: number }>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): RenderedContent | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.content;
  }

  set(key: string, content: RenderedContent): RenderedContent {
    const bytes = estimateBytes(content);
    if (bytes > this.maxBytes / 4) return content;
    const previous = this.entries.get(key);
    if (previous) this.bytes -= previous.bytes;
    this.entries.delete(key);
    this.entries.set(key, { content, bytes });
    this.bytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
    return content;
  }
}

/** JavaScript strings take two bytes a character. */
function estimateBytes(content: RenderedContent): number {
  const headerChars = content.headers.reduce((sum, header) => sum + header.name.length + header.value.length + 32, 0);
  return 2 * (content.text.length + (content.html?.length ?? 0) + headerChars) + 256;
}
