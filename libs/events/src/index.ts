export type { MailEvent, MailCreatedEvent, MailUpdatedEvent, MailDeletedEvent, MailEventChanges } from './mail-events';
export { mailChangeEvent, type ChangedMailState } from './mail-change-event';
export { UserEvents, type EventRetention } from './user-events';
export { UserEventFeed } from './user-event-feed';
export type { UserEventSink } from './event-follower';
export { eventCommandConnection, eventSubscriberConnection } from './event-connections';
export { EventsUnavailableError } from './redis-ready';
export { isEventId } from './event-ids';
