import { createHash } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";

/** Who made a change: the admin session it came from (null for changes made outside a browser session). */
export interface AdminActor {
  adminSessionId: string | null;
}

export const SYSTEM_ACTOR: AdminActor = { adminSessionId: null };

/**
 * Records an admin change inside the transaction that makes it, so a change
 * is never committed without its log line (nor logged when it rolled back).
 * A keyed summary (keyedMessage) is shown in each admin's language; plain text as it is.
 */
export async function logActivity(tx: Prisma.TransactionClient, actor: AdminActor, action: string, summary: string): Promise<void> {
  await tx.activityLog.create({ data: { action, summary: summary.slice(0, 500), adminSessionId: actor.adminSessionId } });
}

/** The newest admin changes for the dashboard, newest first. */
export function listRecentActivity(limit = 20) {
  return cachedRead(`recentActivity:${limit}`, () => readRecentActivity(limit));
}

async function readRecentActivity(limit: number) {
  const rows = await db().activityLog.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, action: true, summary: true, createdAt: true, adminSessionId: true, adminSession: { select: { createdAt: true, clientIp: true } } },
  });
  return rows.map(({ adminSessionId, adminSession, ...row }) => ({
    ...row,
    session: adminSessionId
      ? { label: sessionLabel(adminSessionId), startedAt: adminSession?.createdAt ?? null, clientIp: adminSession?.clientIp ?? null }
      : null,
  }));
}

export type ActivityListItem = Awaited<ReturnType<typeof listRecentActivity>>[number];

// The session id is the cookie's secret value, so pages only ever see a short fingerprint of it.
function sessionLabel(adminSessionId: string): string {
  return createHash("sha256").update(adminSessionId).digest("hex").slice(0, 8);
}
