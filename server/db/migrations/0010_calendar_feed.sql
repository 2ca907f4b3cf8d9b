-- Each staff member's secret calendar feed (GET /api/calendar/{token}.ics). The token itself is never stored: it is
-- derived from `feed_key` with the server's secret (server/features/calendar-feed/calendar-feed.service.ts), and the
-- SHA-256 of it finds the row. A new key (URLを再発行) ends the old URL at once.
CREATE TABLE "staff_calendar_feeds" (
	"staff_id" integer PRIMARY KEY NOT NULL,
	"feed_key" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "staff_calendar_feeds" ADD CONSTRAINT "staff_calendar_feeds_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_calendar_feeds_token_hash_key" ON "staff_calendar_feeds" USING btree ("token_hash");
