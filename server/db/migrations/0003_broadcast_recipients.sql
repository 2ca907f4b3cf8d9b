CREATE TABLE "broadcast_recipients" (
	"broadcast_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	CONSTRAINT "broadcast_recipients_broadcast_id_customer_id_pk" PRIMARY KEY("broadcast_id","customer_id")
);
--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_recipients_customer_idx" ON "broadcast_recipients" USING btree ("customer_id");