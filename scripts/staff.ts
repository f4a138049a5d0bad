// `npm run staff -- grant <email> <manager|producer|host> [crew profile id]`: gives a listener's account a
// staff role from the command line, the operator's way to name the first station manager of a station
// that already runs (on a fresh one, the first signed-in account to enter the admin PIN becomes it).
// With the embedded defaults, stop the server first: only one process may open its database.
import { grantFromCommandLine, StaffError } from "~/models/staff.server";
import { messageFiles } from "~/locales/index.server";
import { ConfigError, loadConfig } from "~/services/config.server";
import { connectDb, disconnectDb } from "~/services/db.server";
import { withStation } from "~/services/station-archive.server";
import { isStaffRole } from "~/utils/staff-roles";

const [command, email, role, crewMemberId = ""] = process.argv.slice(2);
if (command !== "grant" || !email || !isStaffRole(role)) {
  console.error("Usage: npm run staff -- grant <email> <manager|producer|host> [crew profile id]");
  process.exit(2);
}
try {
  const { name } = await withStation(loadConfig(), async ({ databaseUrl }) => {
    connectDb(databaseUrl, 2);
    try {
      return await grantFromCommandLine(email, role, crewMemberId);
    } finally {
      await disconnectDb();
    }
  });
  console.log(`${name} <${email}> is now ${role}`);
  process.exit(0);
} catch (error) {
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else if (error instanceof StaffError) console.error(messageFiles.en.admin[error.message.replace(/^admin\./, "")] ?? error.message);
  else console.error(`Granting the role failed: ${(error as Error).message}`);
  process.exit(1);
}
