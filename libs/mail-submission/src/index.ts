export { MailSubmission, type SubmissionEnvelope } from './mail-submission';
export { createSubmissionServer, type SubmissionServerOptions } from './submission-server';
