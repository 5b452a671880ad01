/** The signed-in user is not an active administrator of their office. */
export class NotAnAdminError extends Error {
  constructor() {
    super('only an administrator of the office may do this');
  }
}

/** No user of this id in the administrator's office (another office's users are not told apart from none). */
export class UserNotFoundError extends Error {
  constructor(readonly userId: number) {
    super(`user ${userId} does not exist`);
  }
}

export class GroupNotFoundError extends Error {
  constructor(readonly groupId: number) {
    super(`group ${groupId} does not exist`);
  }
}

export class AliasNotFoundError extends Error {
  constructor(readonly address: string) {
    super(`${address} is not an alias of this user`);
  }
}

export class SuppressionNotFoundError extends Error {
  constructor(readonly suppressionId: number) {
    super(`suppression ${suppressionId} is not on this office's list`);
  }
}

/** No user has the address (the command line names users so). */
export class UnknownUserError extends Error {
  constructor(readonly address: string) {
    super(`no user has the address ${address}`);
  }
}

/** No office owns the domain (the command line names offices by a domain of theirs). */
export class UnknownOfficeError extends Error {
  constructor(readonly domain: string) {
    super(`no office has the domain ${domain}`);
  }
}

/** One address, one owner: a user's, an alias or a group's. */
export class AddressTakenError extends Error {
  constructor(readonly address: string) {
    super(`the address ${address} exists already`);
  }
}

export class DomainTakenError extends Error {
  constructor(readonly domain: string) {
    super(`the domain ${domain} belongs to an office already`);
  }
}

/** An address is made only in a domain of the office's own. */
export class DomainNotOwnedError extends Error {
  constructor(readonly address: string) {
    super(`the domain of ${address} is not one of the office's domains`);
  }
}

/** An office always keeps an active administrator: the last one is not removed, demoted or disabled. */
export class LastAdminError extends Error {
  constructor() {
    super("the office's last active administrator cannot be removed, demoted or disabled");
  }
}

/** A group inside itself, directly or through other groups, would deliver for ever. */
export class GroupLoopError extends Error {
  constructor(readonly groupId: number) {
    super(`group ${groupId} would contain itself`);
  }
}

/** Members of a group are users and groups of the same office. */
export class NotOfficeMembersError extends Error {
  constructor(kind: 'users' | 'groups', ids: number[]) {
    super(`not ${kind} of this office: ${ids.join(', ')}`);
  }
}

/** The domain is not one of the administrator's office's (another office's are not told apart from none). */
export class UnknownDomainError extends Error {
  constructor(readonly domain: string) {
    super(`${domain} is not a domain of this office`);
  }
}

export class DkimKeyNotFoundError extends Error {
  constructor(
    readonly domain: string,
    readonly selector: string,
  ) {
    super(`${domain} has no active DKIM key with the selector ${selector}`);
  }
}
