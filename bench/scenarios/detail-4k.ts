import { referenceMailDetail } from './reference-mail-detail';

export const detail4kScenario = referenceMailDetail('detail-4k', 'small', 600);
