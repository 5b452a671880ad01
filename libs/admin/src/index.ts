export { commandLineAct, type AdminAct } from './admin-act';
export { addressInput, displayNameInput, domainNameInput, passwordInput, plainTextInput } from './admin-inputs';
export {
  AddressTakenError,
  AliasNotFoundError,
  DomainNotOwnedError,
  DkimKeyNotFoundError,
  DomainTakenError,
  GroupLoopError,
  GroupNotFoundError,
  LastAdminError,
  NotAnAdminError,
  NotOfficeMembersError,
  UnknownDomainError,
  UnknownOfficeError,
  UnknownUserError,
  UserNotFoundError,
  SuppressionNotFoundError,
} from './admin-errors';
export { OfficeAdmins } from './office-admins';
export { adminUserSchema, adminUserPageSchema, type AdminUser, type AdminUserPage } from './users/admin-user-view';
export { UserDirectory, type UserListQuery } from './users/user-directory';
export { AddUser, type NewOfficeUser } from './users/add-user';
export { ChangeUser, type UserChanges } from './users/change-user';
export { RemoveUser } from './users/remove-user';
export { UserAliases } from './aliases/user-aliases';
export { OfficeDomains, officeDomainSchema, officeDomainListSchema, type OfficeDomain } from './domains/office-domains';
export { DomainDkimKeys } from './dkim/domain-dkim-keys';
export { DomainDnsRecords, domainDnsRecordsSchema, type DomainDnsRecordsView } from './dkim/domain-dns-records';
export { dkimKeySchema, txtRecordSchema, type DkimKeyView } from './dkim/dkim-key-view';
export { adminGroupSchema, adminGroupListSchema, type AdminGroup } from './groups/admin-group-view';
export { OfficeGroups, type NewGroup, type GroupChanges } from './groups/office-groups';
export { OfficeSettings, officeSettingsSchema, type OfficeSettingsView } from './office/office-settings';
export { Offices, type OfficeSummary } from './office/offices';
export { OfficeSuppressions, suppressionSchema, suppressionPageSchema, type SuppressionView, type SuppressionPage } from './suppressions/office-suppressions';
