import { daysLater, formatDay, formatTime, groupThousands, meetingTime } from './formatting';
import type { MailTemplate } from './mail-template';
import { ENGLISH_PEOPLE } from './sample-people';

const UNSUBSCRIBE = 'You receive this because you subscribed. Unsubscribe any time from your account settings.';

export const ENGLISH_TEMPLATES: readonly MailTemplate[] = [
  {
    language: 'en',
    senders: [{ name: 'The Weekly Inbox', address: 'newsletter@weekly-inbox.example' }],
    write: ({ random, recipientName }) => {
      const count = random.between(3, 9);
      return {
        subject: `The Weekly Inbox: ${count} ways to a calmer mailbox`,
        title: `${count} ways to a calmer mailbox`,
        paragraphs: [
          `Hi ${recipientName},`,
          'This week we asked readers how they keep their inbox under control. The winners: filters that file receipts automatically, a daily 15-minute triage slot, and unsubscribing without guilt.',
          `Also inside: ${random.pick(['why plain text still wins', 'the quiet return of RSS', 'a tour of keyboard shortcuts'])}, and a reader question about shared mailboxes.`,
          'See you next week!',
        ],
        footer: UNSUBSCRIBE,
      };
    },
  },
  {
    language: 'en',
    senders: [{ name: 'Northwind Hosting Billing', address: 'billing@northwind-hosting.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const invoice = `INV-${sentAt.getUTCFullYear()}-${random.between(1000, 9999)}`;
      const amount = `$${groupThousands(random.between(12, 2400))}.${String(random.between(0, 99)).padStart(2, '0')}`;
      return {
        subject: `Invoice ${invoice} from Northwind Hosting`,
        title: `Invoice ${invoice}`,
        paragraphs: [
          `Dear ${recipientName},`,
          `Your invoice ${invoice} for ${amount} is now available. Payment is due on ${formatDay(daysLater(sentAt, 14), 'en')}.`,
          'The amount will be charged to the card on file. No action is needed unless your payment details changed.',
          'Thank you for your business.\nNorthwind Hosting',
        ],
        footer: 'Northwind Hosting Ltd. · 1 Harbour Street, Dublin',
      };
    },
  },
  {
    language: 'en',
    senders: ENGLISH_PEOPLE,
    write: ({ random, senderName, recipientName, sentAt }) => {
      const at = meetingTime(sentAt, random.between(1, 10), random.between(0, 17));
      const topic = random.pick(['Quarterly planning', 'Design review', 'Sprint retrospective', '1:1 catch-up']);
      return {
        subject: `Invitation: ${topic} @ ${formatDay(at, 'en')} ${formatTime(at)}`,
        title: topic,
        paragraphs: [
          `Hi ${recipientName},`,
          `I'd like to set up a ${topic.toLowerCase()} on ${formatDay(at, 'en')} at ${formatTime(at)} (UTC), ${random.pick(['30', '45', '60'])} minutes, in the small meeting room or on video.`,
          'Agenda: where we are, what is blocking us, and what we commit to for the next two weeks.',
          `Let me know if the time doesn't work.\n${senderName}`,
        ],
      };
    },
  },
  {
    language: 'en',
    senders: [{ name: 'Parcel Express', address: 'tracking@parcel-express.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const order = String(random.between(100_000, 999_999));
      return {
        subject: `Your order #${order} has shipped 📦`,
        title: 'Your order is on its way',
        paragraphs: [
          `Hello ${recipientName},`,
          `Good news: order #${order} left our warehouse and should arrive by ${formatDay(daysLater(sentAt, random.between(2, 6)), 'en')}.`,
          `Tracking number: PX${random.between(10_000_000, 99_999_999)}US`,
          'You can change the delivery address until the parcel reaches your local depot.',
        ],
        footer: 'Parcel Express · Questions? Reply to this email.',
      };
    },
  },
  {
    language: 'en',
    senders: [{ name: 'Account Security', address: 'no-reply@accounts.example' }],
    write: ({ random, recipientName, sentAt }) => ({
      subject: 'New sign-in to your account',
      title: 'New sign-in detected',
      paragraphs: [
        `Hi ${recipientName},`,
        `We noticed a new sign-in to your account on ${random.pick(['a Windows PC', 'an iPhone', 'a Linux laptop', 'an Android tablet'])} on ${formatDay(sentAt, 'en')} at ${formatTime(sentAt)} UTC.`,
        "If this was you, you don't need to do anything. If not, change your password right away and review your recent activity.",
      ],
      footer: 'This is an automated security message.',
    }),
  },
  {
    language: 'en',
    senders: ENGLISH_PEOPLE,
    write: ({ random, senderName, recipientName, sentAt }) => {
      const day = formatDay(daysLater(sentAt, random.between(2, 8)), 'en');
      return {
        subject: `Dinner on ${day}?`,
        title: 'Dinner?',
        paragraphs: [
          `Hey ${recipientName}!`,
          `A few of us are getting together for ${random.pick(['Korean barbecue', 'ramen', 'tacos', 'pizza'])} on ${day}. Want to join? 🍜`,
          `Around 7 pm. Bring whoever you like.\n– ${senderName}`,
        ],
      };
    },
  },
  {
    language: 'en',
    senders: ENGLISH_PEOPLE,
    write: ({ random, senderName }) => {
      const version = `${random.between(1, 4)}.${random.between(0, 12)}.${random.between(0, 9)}`;
      return {
        subject: `Release ${version} is out 🎉`,
        title: `Release ${version}`,
        paragraphs: [
          'Hi all,',
          `Version ${version} went out this morning. Highlights: faster search, threaded replies on mobile, and ${random.between(8, 40)} bug fixes.`,
          'Known issue: attachments over 20 MB may upload slowly on older browsers. A fix is in review.',
          `Thanks to everyone who tested the release candidate.\n${senderName}`,
        ],
      };
    },
  },
  {
    language: 'en',
    senders: [{ name: 'Letterbox Accounts', address: 'no-reply@accounts.example' }],
    write: ({ random, recipientName }) => ({
      subject: 'Reset your password',
      title: 'Password reset',
      paragraphs: [
        `Hi ${recipientName},`,
        'Someone asked to reset the password for your account. If it was you, use the code below within 30 minutes.',
        `Code: ${random.between(100_000, 999_999)}`,
        'If you did not ask for this, you can safely ignore this email.',
      ],
    }),
  },
  {
    language: 'en',
    senders: [{ name: 'StreamBox', address: 'billing@streambox.example' }],
    write: ({ random, recipientName, sentAt }) => ({
      subject: `Your subscription renews on ${formatDay(daysLater(sentAt, 7), 'en')}`,
      title: 'Subscription renewal',
      paragraphs: [
        `Hi ${recipientName},`,
        `Your ${random.pick(['Basic', 'Standard', 'Premium'])} plan renews in 7 days for $${random.pick(['6.99', '11.99', '17.99'])} a month.`,
        'To change or cancel your plan, visit your account page before the renewal date.',
      ],
      footer: UNSUBSCRIBE,
    }),
  },
  {
    language: 'en',
    senders: [{ name: 'DevConf Online', address: 'events@devconf.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const talk = random.pick(['Scaling IMAP to a million mailboxes', 'MIME, the hard parts', 'Search that users trust']);
      return {
        subject: `Reminder: "${talk}" starts in one hour`,
        title: talk,
        paragraphs: [
          `Hi ${recipientName},`,
          `The webinar "${talk}" starts today at ${formatTime(new Date(sentAt.getTime() + 3_600_000))} UTC. Join from your browser, no install needed.`,
          'A recording will be sent to all registered attendees within two days.',
        ],
        footer: 'DevConf Online · You registered for this event.',
      };
    },
  },
];
