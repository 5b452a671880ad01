/** What choosing an identity needs of one: its address and whether it is the user's primary. */
interface ChoosableIdentity {
  address: string;
  primary: boolean;
}

/**
 * The identity a reply or forward is written as: the first of the user's addresses among those the answered mail
 * names (its To, then Cc, then From for a mail the user sent), compared case-insensitively; else the primary.
 */
export function answeringIdentity<Identity extends ChoosableIdentity>(identities: Identity[], addressedTo: string[]): Identity | undefined {
  const byAddress = new Map(identities.map((identity) => [identity.address.toLowerCase(), identity]));
  for (const address of addressedTo) {
    const identity = byAddress.get(address.trim().toLowerCase());
    if (identity) return identity;
  }
  return identities.find((identity) => identity.primary) ?? identities[0];
}
