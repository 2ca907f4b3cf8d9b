/** Menu management (SPEC.md §2 メニュー管理), wired by src/app/routes/admin. */
export { MenuPage } from './components/menu-page';
export { menuKeys } from './api/menu-queries';
