import { db } from "~/services/db.server";
import { getListenerSession } from "~/services/session.server";

/** The signed-in listener's public fields, or null for a guest. */
export async function getCurrentUser(request: Request) {
  const session = await getListenerSession(request);
  const userId = session.get("userId");
  if (!userId) return null;
  return db().user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true } });
}
