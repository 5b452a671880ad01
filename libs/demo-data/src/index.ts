export { seedDemoOffice, DEMO_DOMAIN, DEMO_PASSWORD, type DemoOffice } from './seed-demo-office';
export { addBulkMails, type BulkMailsResult } from './bulk-mails';
