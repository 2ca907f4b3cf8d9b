ALTER TABLE "salons" ADD COLUMN "line_monthly_push_limit" integer DEFAULT 200 NOT NULL;--> statement-breakpoint
CREATE TABLE "line_push_counts" (
	"salon_id" integer NOT NULL,
	"month" text NOT NULL,
	"pushes" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "line_push_counts_salon_id_month_pk" PRIMARY KEY("salon_id","month")
);
--> statement-breakpoint
ALTER TABLE "line_push_counts" ADD CONSTRAINT "line_push_counts_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications_outbox" ADD COLUMN "line_push_month" text;--> statement-breakpoint
ALTER TABLE "dev_line_inbox" ADD COLUMN "reply_token" text;
