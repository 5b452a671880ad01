export { DeviceRegistry, DeviceTokenTakenError, DEVICE_PLATFORMS, type DevicePlatform, type DeviceView, type Registration } from './device-registry';
export { openFcm, type FcmConnection, type FcmTarget } from './fcm-connection';
export { PushSender, type PushNotification, type PushReport, type RefusedToken } from './push-sender';
export { newMailNotification } from './new-mail-notification';
export { NewMailNotifier } from './new-mail-notifier';
