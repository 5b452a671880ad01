import { referenceMailDetail } from './reference-mail-detail';

export const detail712kScenario = referenceMailDetail('detail-712k', 'medium', 600);
