/** The message history screens of the admin area (SPEC.md §2), wired by src/app/routes/admin. */
export { LineHistoryPage } from './components/line-history-page';
export { messageKeys } from './api/messages-queries';
