export { seedDemoOffice, DEMO_ADMIN, DEMO_DOMAIN, DEMO_PASSWORD } from './seed-demo-office';
export { addBulkMails } from './bulk-mails';
export { seedDemoDkimKeys } from './seed-demo-dkim-keys';
