/**
 * Asks the SMTP provider whether it accepted a message: after a crash between the
 * provider's 250 and our record of it, the retry asks before sending again. Providers
 * that can be asked offer a listing or event API of what they accepted.
 */
export interface ProviderReceipts {
  /** Whether the provider accepted the message with this Message-ID for every one of `recipients`. */
  accepted(messageId: string, recipients: string[]): Promise<boolean>;
}

interface ListedMessage {
  headers: Array<{ name: string; value: string }>;
}

/**
 * The most a listing gives at once. Without it the mock gives the latest 100, and a
 * recipient who got that many more mails since the attempt would hide its copy.
 */
const LISTING_LIMIT = 10_000;

/**
 * A provider whose control API lists the mail it accepted per recipient at
 * `GET /smtp/messages?to=` with each message's headers, as the mock SMTP provider does.
 */
export class ListingProviderReceipts implements ProviderReceipts {
  constructor(private readonly baseUrl: string) {}

  async accepted(messageId: string, recipients: string[]): Promise<boolean> {
    for (const recipient of recipients) {
      const response = await fetch(`${this.baseUrl.replace(/\/$/, '')}/smtp/messages?to=${encodeURIComponent(recipient)}&limit=${LISTING_LIMIT}`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`the provider's listing answered ${response.status}`);
      const { items } = (await response.json()) as { items: ListedMessage[] };
      const found = items.some((item) => item.headers.some((header) => header.name.toLowerCase() === 'message-id' && header.value.trim() === messageId));
      if (!found) return false;
    }
    return true;
  }
}
