/** The languages Letterbox has words for: the users table's CHECK constraint allows these and no others. */
export const USER_LOCALES = ['en', 'ko'] as const;
export type UserLocale = (typeof USER_LOCALES)[number];
