export type { MailEvent, MailCreatedEvent, MailUpdatedEvent, MailDeletedEvent, MailsChangedEvent, MailboxChangedEvent, MailEventChanges } from './mail-events';
export { mailChangeEvent, bulkChangeEvents, type ChangedMailState, type UserMailChanges } from './mail-change-event';
export { UserEvents, type EventRetention } from './user-events';
export { UserEventFeed } from './user-event-feed';
export type { UserEventSink } from './event-follower';
export { eventSubscriberConnection } from './event-connections';
export { EventsUnavailableError } from './events-unavailable-error';
export { isEventId } from './event-ids';
