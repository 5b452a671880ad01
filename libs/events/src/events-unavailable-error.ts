/** Redis, where live events are published and kept, cannot be reached now. */
export class EventsUnavailableError extends Error {}
