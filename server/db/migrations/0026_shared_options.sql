-- Options shared between menus (issue 32): an オプション belongs to the salon, and any number of its menus allow it
-- (one ジェルオフ for every gel menu, one price to keep). Each existing option stays allowed by the one service it
-- belonged to; nothing is merged (reservations and checkouts keep their snapshots, the owner merges by editing).
CREATE TABLE "service_option_links" (
	"service_id" integer NOT NULL,
	"option_id" integer NOT NULL,
	CONSTRAINT "service_option_links_service_id_option_id_pk" PRIMARY KEY("service_id","option_id")
);
--> statement-breakpoint
ALTER TABLE "service_option_links" ADD CONSTRAINT "service_option_links_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_option_links" ADD CONSTRAINT "service_option_links_option_id_service_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."service_options"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_option_links_option_idx" ON "service_option_links" USING btree ("option_id");--> statement-breakpoint
INSERT INTO "service_option_links" ("service_id", "option_id") SELECT "service_id", "id" FROM "service_options";--> statement-breakpoint
DROP INDEX "service_options_service_idx";--> statement-breakpoint
ALTER TABLE "service_options" DROP COLUMN "service_id";--> statement-breakpoint
CREATE INDEX "service_options_salon_idx" ON "service_options" USING btree ("salon_id","is_active");
