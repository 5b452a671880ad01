export type { SendRequest, SendAttachment, Sender } from './send-request';
export { recipientsOf } from './send-request';
export { recordSend, type RecordedRequest } from './record-send';
export { UserSends } from './user-sends';
export { SendDelivery, type SendDeliveryOptions } from './send-delivery';
export { SendNotFoundError, SendAlreadyStartedError, IdempotencyKeyReusedError } from './send-errors';
export { isPermanentSmtpFailure, describeSmtpFailure } from './smtp-failure';
export type { SendView } from './send-view';
export { SendOutbox } from './send-outbox';
