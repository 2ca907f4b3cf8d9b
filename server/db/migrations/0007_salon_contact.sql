-- How customers reach the salon: shown on the login, booking and reservation pages and in the e-mails. Empty
-- until the owner fills them in on the settings screen; an empty value is simply not shown.
ALTER TABLE "salons" ADD COLUMN "phone_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "map_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "opening_hours_text" text DEFAULT '' NOT NULL;
