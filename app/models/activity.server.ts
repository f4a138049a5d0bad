import { createHash } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import { db, likeLiteral } from "~/services/db.server";
import { cachedRead } from "~/services/read-cache.server";
import { serverI18n } from "~/i18n/catalogs.server";
import type { MessageKey } from "~/i18n/keys";
import { translator } from "~/i18n/translate";
import { activityText, type ActivityMessage, type ActivityValue } from "~/utils/activity-message";

export { activityMessage } from "~/utils/activity-message";

/**
 * Who made a change: the admin session it came from (null for changes made outside a browser
 * session) and the staff member (null for the station PIN's session and the system).
 */
export interface AdminActor {
  adminSessionId: string | null;
  userId?: string | null;
  name?: string | null;
}

export const SYSTEM_ACTOR: AdminActor = { adminSessionId: null };

/**
 * Records an admin change inside the transaction that makes it, so a change
 * is never committed without its log line (nor logged when it rolled back).
 * What happened is stored as a message (key and values), shown in each reader's language;
 * `summary` keeps it in English for logs and exports.
 */
export async function logActivity(tx: Prisma.TransactionClient, actor: AdminActor, action: string, message: ActivityMessage): Promise<void> {
  const summary = activityText(message, translator(serverI18n("en"))).slice(0, 500);
  await tx.activityLog.create({
    data: {
      action,
      summary,
      messageKey: message.key,
      messageValues: message.values as Prisma.InputJsonObject | undefined,
      adminSessionId: actor.adminSessionId,
      actorUserId: actor.userId ?? null,
      actorName: actor.name ?? null,
    },
  });
}

/** The newest admin changes for the dashboard, newest first. */
export function listRecentActivity(limit = 20) {
  return cachedRead(`recentActivity:${limit}`, () => listActivity({ limit }));
}

/** The activity log's filters: one staff member (their account id) and one kind of thing changed (an action's first word, "show", "event", ...). */
export interface ActivityFilter {
  person?: string | null;
  entity?: string | null;
  limit: number;
}

/** The filters a page or export asks for in its address (?person=&entity=); anything unlike an id or a word is no filter. */
export function activityFilterFrom(params: URLSearchParams): { person: string | null; entity: string | null } {
  const person = params.get("person") ?? "";
  const entity = params.get("entity") ?? "";
  return { person: /^[A-Za-z0-9_-]{1,64}$/.test(person) ? person : null, entity: /^[a-z][A-Za-z0-9-]{0,40}$/.test(entity) ? entity : null };
}

/** Admin changes, newest first, filtered by person and by entity; each names its staff member (or none: the station PIN, the system). */
export async function listActivity({ person, entity, limit }: ActivityFilter) {
  const rows = await db().activityLog.findMany({
    where: { ...(person ? { actorUserId: person } : {}), ...(entity ? { action: { startsWith: likeLiteral(`${entity}.`) } } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: {
      id: true,
      action: true,
      summary: true,
      messageKey: true,
      messageValues: true,
      createdAt: true,
      actorName: true,
      actorUserId: true,
      adminSessionId: true,
      adminSession: { select: { createdAt: true, clientIp: true } },
    },
  });
  return rows.map(({ adminSessionId, adminSession, messageKey, messageValues, ...row }) => ({
    ...row,
    // Rows older than messages (free English text) have none: they are shown as written.
    message: messageKey
      ? ({ key: messageKey as MessageKey, values: (messageValues ?? undefined) as Record<string, ActivityValue> | undefined } satisfies ActivityMessage)
      : null,
    session: adminSessionId
      ? { label: sessionLabel(adminSessionId), startedAt: adminSession?.createdAt ?? null, clientIp: adminSession?.clientIp ?? null }
      : null,
  }));
}

/** What the log's filters offer: everyone who has made a change (by their latest name) and every kind of thing changed. */
export async function activityFilterChoices() {
  const [people, actions] = await Promise.all([
    db().activityLog.findMany({
      where: { actorUserId: { not: null } },
      distinct: ["actorUserId"],
      orderBy: [{ actorUserId: "asc" }, { createdAt: "desc" }],
      select: { actorUserId: true, actorName: true },
    }),
    db().activityLog.findMany({ distinct: ["action"], select: { action: true } }),
  ]);
  return {
    people: people.map((row) => ({ id: row.actorUserId!, name: row.actorName ?? "" })).sort((a, b) => a.name.localeCompare(b.name)),
    entities: [...new Set(actions.map((row) => row.action.split(".")[0]))].sort(),
  };
}

export type ActivityListItem = Awaited<ReturnType<typeof listRecentActivity>>[number];

// The session id is the cookie's secret value, so pages only ever see a short fingerprint of it.
function sessionLabel(adminSessionId: string): string {
  return createHash("sha256").update(adminSessionId).digest("hex").slice(0, 8);
}
