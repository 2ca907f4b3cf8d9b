/** The salon settings screen (superusers; DESIGN.md §5), wired by src/app/routes/admin. */
export { SettingsPage } from './components/settings-page';
export { settingsKeys } from './api/settings-queries';
