/** An error smtp-server sends to the client as `<responseCode> <message>`. */
export function smtpReply(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}
