export interface AuthenticatedUser {
  userId: number;
  officeId: number;
  /** When the request's token expires, seconds since the epoch: what lives on (an event stream) ends then. */
  tokenExpiresAt: number;
}
