import 'i18next';
import type { en } from './en';

/** Every key passed to t() must be one of the English resources'. */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}
