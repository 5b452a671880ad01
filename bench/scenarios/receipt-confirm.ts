import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

export const receiptConfirmScenario: LoadScenario = {
  kind: 'load',
  name: 'receipt-confirm',
  title: 'GET /v2/office/:officeNo/receipt-confirm/:certKey/email/:email (public pixel), a different receipt each request',
  tool: 'autocannon',
  connections: 600,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({
    paths: (await fixtures.benchReceipts()).map(
      (receipt) => `/v2/office/${receipt.officeNo}/receipt-confirm/${receipt.certKey}/email/${encodeURIComponent(receipt.email)}`,
    ),
    headers: {},
  }),
};
