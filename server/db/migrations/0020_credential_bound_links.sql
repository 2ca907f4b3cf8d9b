-- Issue 31. A calendar feed belongs to the staff member's credentials of the moment it was made: `token_version` is
-- their staff_users.token_version then, and a feed of another version is no feed (a password reset or a
-- deactivation raises it, so the old URL ends and the next look makes a new one). Existing feeds take the current
-- version, so they keep working. `include_phone`: the feed shows customers' phone numbers only when the staff
-- member chose so for this URL (server/features/calendar-feed/calendar-feed.service.ts).
ALTER TABLE "staff_calendar_feeds" ADD COLUMN "token_version" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "staff_calendar_feeds" ADD COLUMN "include_phone" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "staff_calendar_feeds" AS f SET "token_version" = s."token_version" FROM "staff_users" AS s WHERE s."id" = f."staff_id";
--> statement-breakpoint
-- A superuser removing a customer's LINE link: who, when, and which LINE account it was, kept for good
-- (server/features/customers/customer-line-link.ts).
CREATE TABLE "customer_line_unlinks" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"line_user_id" text NOT NULL,
	"line_display_name" text DEFAULT '' NOT NULL,
	"unlinked_by_staff_id" integer NOT NULL,
	"unlinked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_line_unlinks" ADD CONSTRAINT "customer_line_unlinks_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_line_unlinks" ADD CONSTRAINT "customer_line_unlinks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_line_unlinks" ADD CONSTRAINT "customer_line_unlinks_unlinked_by_staff_id_staff_users_id_fk" FOREIGN KEY ("unlinked_by_staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_line_unlinks_customer_idx" ON "customer_line_unlinks" USING btree ("customer_id");
--> statement-breakpoint
-- At most 10 push subscriptions per staff member (server/features/push-subscriptions): the longest-held beyond that go.
DELETE FROM "staff_push_subscriptions" WHERE "id" IN (
	SELECT "id" FROM (
		SELECT "id", row_number() OVER (PARTITION BY "staff_id" ORDER BY "created_at" DESC, "id" DESC) AS "rank"
		FROM "staff_push_subscriptions"
	) AS ranked WHERE "rank" > 10
);
