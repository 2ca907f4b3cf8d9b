/** The customer screens of the admin area (SPEC.md §2), wired by src/app/routes/admin. */
export { CustomerListPage } from './components/customer-list-page';
export { CustomerDetailPage } from './components/customer-detail-page';
export { CustomerMemoPage } from './components/customer-memo-page';
export { SendMessagePage } from './components/send-message-page';
export { customerKeys } from './api/customers-queries';
