/**
 * A 20-rule Sieve script of the kinds people write (senders, lists, subjects, sizes, a body
 * word), none of which matches the bench's newsletters: every test of every rule is evaluated
 * on every mail, the most a script of its length costs, and the mail still lands in the inbox.
 */
export const TWENTY_RULES = [
  'require ["fileinto", "imap4flags", "envelope", "body", "relational", "comparator-i;ascii-numeric"];',
  ...Array.from({ length: 20 }, (_, index) => {
    const tests = [
      `address :domain :is "from" "vendor-${index}.example"`,
      `header :contains "list-id" "team-${index}.lists.example"`,
      `header :matches "subject" "*[ticket-${index}]*"`,
      `envelope :localpart :is "from" "billing-${index}"`,
      `size :over ${10 + index}M`,
      `address :count "ge" :comparator "i;ascii-numeric" ["to", "cc"] "${50 + index}"`,
      `body :contains "unsubscribe-code-${index}"`,
    ];
    return `# rule:[Rule ${index + 1}]\nif anyof (${tests.join(', ')}) {\n  addflag "\\\\Seen";\n  fileinto "Archive";\n  stop;\n}`;
  }),
].join('\n');
