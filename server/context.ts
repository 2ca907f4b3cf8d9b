import type { Database, Executor } from './db/client';
import type { Env } from './env';
import type { AuthService } from './features/auth/auth.service';
import type { createLineLoginService } from './features/auth/line-login.service';
import type { TokenSigner } from './features/auth/tokens';
import type { CalendarFeedService } from './features/calendar-feed/calendar-feed.service';
import type { AvailabilityService } from './features/booking/availability.service';
import type { ReadCache } from './features/booking/read-cache';
import type { EventBus } from './features/events/event-bus';
import type { ReservationWithNames } from './features/reservations/reservations.repository';
import type { ReservationsService } from './features/reservations/reservations.service';
import type { ScheduleScope } from './features/schedule/schedule-change';
import type { LineLoginClient } from './integrations/line/login-client';
import type { MediaStore } from './integrations/storage/media-store';
import type { Notifications } from './outbox/notifications';
import type { LatestReservationChannel } from './outbox/reservation-notifications';
import type { BookingLimiter } from './plugins/booking-limits';
import type { LoginLimiter } from './plugins/login-limits';

/** What route modules need, built once by buildApp(). Features receive it instead of importing each other. */
export interface AppContext {
  env: Env;
  db: Database;
  engine: 'pglite' | 'postgres';
  salonId: number;
  /** The address the app is reached at (PUBLIC_URL, else http://HOST:PORT), for links sent to people. */
  publicUrl: string;
  now: () => Date;
  tokens: TokenSigner;
  auth: AuthService;
  /** scrypt as docs/architecture.md#sessions-and-tokens describes it (server/features/auth/passwords.ts), for features that store passwords. */
  hashPassword(password: string): Promise<string>;
  line: LineLoginClient;
  lineLogin: ReturnType<typeof createLineLoginService>;
  availability: AvailabilityService;
  /**
   * The booking read cache (server/features/booking/read-cache.ts): what customers browse and the staff reservation
   * lists, dropped on writes and on reservation changes of other instances (server/app.ts).
   */
  reads: ReadCache;
  reservations: ReservationsService;
  /**
   * Runs a change of working time in one transaction that refuses (409 `stranded`) to leave a booking outside it
   * (server/features/schedule/schedule-change.ts); for features other than the schedule (e.g. the salon's 定休日).
   */
  changeSchedule<T>(scope: ScheduleScope, write: (tx: Executor) => Promise<T>): Promise<T>;
  /** Live updates (GET /api/admin/events/); the reservations service publishes to it after each commit. */
  events: EventBus;
  /**
   * Pushes the customer's next reservation (or a "none found" note) to their LINE chat, through the outbox; by
   * e-mail when the month's LINE pushes are spent. Says how it went.
   */
  sendLatestReservationToChat(
    customerId: number,
    reservation: ReservationWithNames | null,
  ): Promise<LatestReservationChannel>;
  /** Pictures sent and received in LINE messages: one folder (UPLOAD_DIR), served from /media/. */
  media: MediaStore;
  /** Each staff member's secret iCalendar URL and its content (server/features/calendar-feed). */
  calendarFeed: CalendarFeedService;
  /** The notifications outbox: its worker, transports and reservation notifier (server/outbox). */
  notifications: Notifications;
  /** Password login limits: failures per address and login ID, per address, and a growing delay per login ID. */
  loginLimits: LoginLimiter;
  /** How often a customer may book or cancel, and with how many e-mail addresses a day. */
  bookingLimits: BookingLimiter;
}
