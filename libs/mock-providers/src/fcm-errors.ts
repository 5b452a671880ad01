/** The FCM HTTP v1 error codes the mock can answer, with the HTTP status and message FCM gives each. */
export const FCM_ERRORS = {
  UNREGISTERED: { httpStatus: 404, status: 'NOT_FOUND', message: 'Requested entity was not found.' },
  INVALID_ARGUMENT: { httpStatus: 400, status: 'INVALID_ARGUMENT', message: 'The registration token is not a valid FCM registration token' },
  SENDER_ID_MISMATCH: { httpStatus: 403, status: 'PERMISSION_DENIED', message: 'SenderId mismatch' },
  THIRD_PARTY_AUTH_ERROR: { httpStatus: 401, status: 'UNAUTHENTICATED', message: 'Auth error from APNS or Web Push Service' },
  QUOTA_EXCEEDED: { httpStatus: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded for the device or the project' },
  UNAVAILABLE: { httpStatus: 503, status: 'UNAVAILABLE', message: 'The service is currently unavailable.' },
  INTERNAL: { httpStatus: 500, status: 'INTERNAL', message: 'Internal error encountered.' },
} as const;

export type FcmErrorCode = keyof typeof FCM_ERRORS;

export const FCM_ERROR_CODES = Object.keys(FCM_ERRORS) as [FcmErrorCode, ...FcmErrorCode[]];

export interface GoogleErrorBody {
  error: { code: number; message: string; status: string; details: Array<Record<string, unknown>> };
}

/**
 * An error as Google's APIs write it, with the FcmError detail that firebase-admin reads
 * its error code from. An invalid token also names the field at fault, as FCM does.
 */
export function fcmErrorBody(code: FcmErrorCode, message: string = FCM_ERRORS[code].message): GoogleErrorBody {
  const { httpStatus, status } = FCM_ERRORS[code];
  const details: Array<Record<string, unknown>> = [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: code }];
  if (code === 'INVALID_ARGUMENT' && message === FCM_ERRORS.INVALID_ARGUMENT.message) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: message }] });
  }
  return { error: { code: httpStatus, message, status, details } };
}
