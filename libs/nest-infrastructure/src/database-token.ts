/** The injection token of the app's Database (a pg pool and a Prisma client over it). */
export const DATABASE = Symbol('DATABASE');
