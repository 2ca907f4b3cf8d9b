-- The scratch row GET /api/health/ writes on every check (server/features/health/health.routes.ts): a database that
-- answers reads but cannot write (a full disk, a read-only standby) is not healthy, and only a write shows it. One
-- row per instance name, overwritten in place; nothing reads it back.
CREATE TABLE "health_probe" (
	"instance" text PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL
);
