/** The statistics screen of the admin area (SPEC.md §2, superusers only); recharts loads lazily inside it. */
export { StatisticsPage } from './components/statistics-page';
export { statisticsKeys } from './api/statistics-queries';
