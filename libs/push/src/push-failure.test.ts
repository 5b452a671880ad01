import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyPushFailure } from './push-failure';

test('tokens FCM does not know are dead, and so is a token FCM calls invalid', () => {
  assert.equal(classifyPushFailure({ code: 'messaging/registration-token-not-registered', message: 'Requested entity was not found.' }), 'dead');
  assert.equal(classifyPushFailure({ code: 'messaging/invalid-registration-token', message: 'Invalid registration token' }), 'dead');
  assert.equal(classifyPushFailure({ code: 'messaging/invalid-argument', message: 'The registration token is not a valid FCM registration token' }), 'dead');
});

test('an invalid argument about the message itself is permanent, the token is kept', () => {
  assert.equal(classifyPushFailure({ code: 'messaging/invalid-argument', message: "Invalid value at 'message.data[0].value'" }), 'permanent');
});

test('unavailable, over quota, internal errors and lost connections are worth another try', () => {
  for (const code of [
    'messaging/server-unavailable',
    'messaging/message-rate-exceeded',
    'messaging/internal-error',
    'app/network-error',
    'app/network-timeout',
  ]) {
    assert.equal(classifyPushFailure({ code, message: 'x' }), 'transient', code);
  }
  assert.equal(classifyPushFailure({ code: 'messaging/unknown-error', message: 'Bad Gateway', httpResponse: { status: 502 } }), 'transient');
});

test('anything else is permanent: a sender mismatch, a third-party auth error, an unknown error', () => {
  for (const code of ['messaging/mismatched-credential', 'messaging/third-party-auth-error', 'messaging/authentication-error', 'messaging/unknown-error']) {
    assert.equal(classifyPushFailure({ code, message: 'x', httpResponse: { status: 403 } }), 'permanent', code);
  }
  assert.equal(classifyPushFailure({ message: 'no code at all' }), 'permanent');
});
