export { DeviceRegistry, DeviceTokenTakenError, DEVICE_PLATFORMS } from './device-registry';
export { openFcm, type FcmTarget } from './fcm-connection';
export { PushSender, type PushNotification } from './push-sender';
export { newMailNotification } from './new-mail-notification';
export { NewMailNotifier } from './new-mail-notifier';
