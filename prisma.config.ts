import { defineConfig } from "prisma/config";

// The CLI only needs the schema path: migrations are made and applied by our own
// offline scripts (scripts/db-migration.ts, scripts/db-migrate.ts).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
