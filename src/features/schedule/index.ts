/** The opening-time screen (SPEC.md §2 受付時間設定), wired by src/app/routes/admin. */
export { SchedulePage, type ScheduleViewer } from './components/schedule-page';
export { scheduleKeys } from './api/schedule-queries';
