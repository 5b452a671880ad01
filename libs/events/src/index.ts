export type { MailEvent } from './mail-events';
export { mailChangeEvent, bulkChangeEvents } from './mail-change-event';
export { UserEvents } from './user-events';
export { UserEventFeed } from './user-event-feed';
export type { UserEventSink } from './event-follower';
export { eventSubscriberConnection } from './event-connections';
export { isEventId } from './event-ids';
export { MailAnnouncer, createMailAnnouncer, type UserMailEvent } from './mail-announcer';
export { mailCreatedEvents } from './mail-created-events';
