-- Staff roles (issue 32): オーナー (owner, today's superuser), 受付 (front_desk) and ネイリスト (nailist, today's ordinary
-- staff); src/shared/roles.ts says what each may reach. is_superuser stays, true exactly for an owner, so that every
-- reader of it keeps its meaning.
ALTER TABLE "staff_users" ADD COLUMN "role" text DEFAULT 'nailist' NOT NULL;
--> statement-breakpoint
UPDATE "staff_users" SET "role" = CASE WHEN "is_superuser" THEN 'owner' ELSE 'nailist' END;
--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_check" CHECK ("staff_users"."role" in ('owner', 'front_desk', 'nailist'));
--> statement-breakpoint
-- A writer that names only one of the two columns (an older insert setting is_superuser, a role change) gets the
-- other to match, before the check below decides: the role wins when it changed, else the flag.
CREATE FUNCTION staff_users_role_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.is_superuser OR NEW.role = 'owner' THEN
      NEW.role := 'owner';
      NEW.is_superuser := true;
    END IF;
  ELSIF NEW.role IS DISTINCT FROM OLD.role THEN
    NEW.is_superuser := NEW.role = 'owner';
  ELSIF NEW.is_superuser IS DISTINCT FROM OLD.is_superuser THEN
    NEW.role := CASE WHEN NEW.is_superuser THEN 'owner' WHEN OLD.role = 'owner' THEN 'nailist' ELSE OLD.role END;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "staff_users_role_sync" BEFORE INSERT OR UPDATE OF "role", "is_superuser" ON "staff_users"
  FOR EACH ROW EXECUTE FUNCTION staff_users_role_sync();
--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_owner_is_superuser_check" CHECK ("staff_users"."is_superuser" = ("staff_users"."role" = 'owner'));
--> statement-breakpoint
-- Services in 5-minute steps from 15 minutes (was 30-minute steps from 30).
ALTER TABLE "services" DROP CONSTRAINT "services_duration_check";
--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_duration_check" CHECK ("services"."duration_minutes" between 15 and 240 and "services"."duration_minutes" % 5 = 0);
