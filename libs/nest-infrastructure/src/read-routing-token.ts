/** The injection token of the app's read routing (UserReads & UserWrites of @letterbox/db). */
export const READ_ROUTING = Symbol('READ_ROUTING');
