-- The register (会計, docs/architecture.md#register-会計): the salon's invoice settings, a product catalogue, checkouts,
-- their corrections (voids and refunds, records of their own) and the day's closing. Money is integer yen and is
-- never edited or deleted in place: triggers refuse UPDATE and DELETE on the three money tables.
ALTER TABLE "salons" ADD COLUMN "invoice_registration_number" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "tax_rounding" text DEFAULT 'floor' NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD COLUMN "opening_float" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_invoice_registration_number_check" CHECK ("invoice_registration_number" = '' or "invoice_registration_number" ~ '^T[0-9]{13}$');--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_tax_rounding_check" CHECK ("tax_rounding" in ('floor','round','ceil'));--> statement-breakpoint
ALTER TABLE "salons" ADD CONSTRAINT "salons_opening_float_check" CHECK ("opening_float" >= 0);--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"tax_rate" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_check" CHECK ("products"."price" >= 0),
	CONSTRAINT "products_tax_rate_check" CHECK ("products"."tax_rate" in (8, 10))
);
--> statement-breakpoint
CREATE TABLE "checkouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"receipt_number" text NOT NULL,
	"business_date" date NOT NULL,
	"checked_out_at" timestamp with time zone NOT NULL,
	"reservation_id" integer,
	"customer_id" integer,
	"customer_name" text DEFAULT '' NOT NULL,
	"staff_id" integer NOT NULL,
	"created_by_staff_id" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"discounts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"subtotal" integer NOT NULL,
	"discount_total" integer NOT NULL,
	"total" integer NOT NULL,
	"tax_by_rate" jsonb NOT NULL,
	"payments" jsonb NOT NULL,
	"cash_received" integer NOT NULL,
	"change" integer NOT NULL,
	"tax_rounding" text NOT NULL,
	"idempotency_key" text,
	CONSTRAINT "checkouts_money_check" CHECK ("checkouts"."total" >= 0 and "checkouts"."discount_total" >= 0 and "checkouts"."total" = "checkouts"."subtotal" - "checkouts"."discount_total" and "checkouts"."change" >= 0 and "checkouts"."cash_received" >= "checkouts"."change")
);
--> statement-breakpoint
CREATE TABLE "checkout_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"checkout_id" integer NOT NULL,
	"kind" text NOT NULL,
	"business_date" date NOT NULL,
	"amount" integer NOT NULL,
	"tax_by_rate" jsonb NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"method" text NOT NULL,
	"cash_refunded" integer NOT NULL,
	"reason" text NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_corrections_kind_check" CHECK ("checkout_corrections"."kind" in ('void','refund')),
	CONSTRAINT "checkout_corrections_amount_check" CHECK ("checkout_corrections"."amount" >= 0 and "checkout_corrections"."cash_refunded" between 0 and "checkout_corrections"."amount")
);
--> statement-breakpoint
CREATE TABLE "register_closings" (
	"id" serial PRIMARY KEY NOT NULL,
	"salon_id" integer NOT NULL,
	"business_date" date NOT NULL,
	"opening_float" integer NOT NULL,
	"cash_received" integer NOT NULL,
	"change_given" integer NOT NULL,
	"cash_refunded" integer NOT NULL,
	"expected_cash" integer NOT NULL,
	"counted_cash" integer NOT NULL,
	"totals_by_method" jsonb NOT NULL,
	"memo" text DEFAULT '' NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "register_closings_counted_check" CHECK ("register_closings"."counted_cash" >= 0)
);
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_created_by_staff_id_staff_users_id_fk" FOREIGN KEY ("created_by_staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_corrections" ADD CONSTRAINT "checkout_corrections_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_corrections" ADD CONSTRAINT "checkout_corrections_checkout_id_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_corrections" ADD CONSTRAINT "checkout_corrections_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_closings" ADD CONSTRAINT "register_closings_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "register_closings" ADD CONSTRAINT "register_closings_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_salon_idx" ON "products" USING btree ("salon_id","is_active");--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_receipt_number_key" ON "checkouts" USING btree ("salon_id","receipt_number");--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_reservation_key" ON "checkouts" USING btree ("reservation_id") WHERE "checkouts"."reservation_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "checkouts_idempotency_key" ON "checkouts" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "checkouts_salon_date_idx" ON "checkouts" USING btree ("salon_id","business_date");--> statement-breakpoint
CREATE INDEX "checkout_corrections_checkout_idx" ON "checkout_corrections" USING btree ("checkout_id");--> statement-breakpoint
CREATE INDEX "checkout_corrections_salon_date_idx" ON "checkout_corrections" USING btree ("salon_id","business_date");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_corrections_one_void_key" ON "checkout_corrections" USING btree ("checkout_id") WHERE "checkout_corrections"."kind" = 'void';--> statement-breakpoint
CREATE UNIQUE INDEX "register_closings_date_key" ON "register_closings" USING btree ("salon_id","business_date");--> statement-breakpoint
CREATE SEQUENCE "checkout_receipt_seq";--> statement-breakpoint
CREATE OR REPLACE FUNCTION register_records_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'register records are never changed or deleted: record a void or a refund instead'
    USING ERRCODE = 'restrict_violation';
END $$;--> statement-breakpoint
CREATE TRIGGER "checkouts_immutable" BEFORE UPDATE OR DELETE ON "checkouts"
  FOR EACH ROW EXECUTE FUNCTION register_records_are_immutable();--> statement-breakpoint
CREATE TRIGGER "checkout_corrections_immutable" BEFORE UPDATE OR DELETE ON "checkout_corrections"
  FOR EACH ROW EXECUTE FUNCTION register_records_are_immutable();--> statement-breakpoint
CREATE TRIGGER "register_closings_immutable" BEFORE UPDATE OR DELETE ON "register_closings"
  FOR EACH ROW EXECUTE FUNCTION register_records_are_immutable();
