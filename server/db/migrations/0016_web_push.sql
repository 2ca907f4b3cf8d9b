-- Staff browsers that take Web Push (server/integrations/web-push, server/features/push-subscriptions). An endpoint
-- belongs to one browser, so it is unique: subscribing it again (another staff member signing in on that browser)
-- moves the row. Deleting a staff member deletes their subscriptions. The outbox channel `webpush` needs no change
-- here: notifications_outbox.channel is plain text, its values listed in server/db/schema.ts.
CREATE TABLE "staff_push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_success_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_push_subscriptions" ADD CONSTRAINT "staff_push_subscriptions_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_push_subscriptions" ADD CONSTRAINT "staff_push_subscriptions_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_push_subscriptions_endpoint_key" ON "staff_push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "staff_push_subscriptions_staff_idx" ON "staff_push_subscriptions" USING btree ("staff_id");
