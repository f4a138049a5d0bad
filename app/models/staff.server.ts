import { createHash } from "node:crypto";
import type { Prisma } from "~/generated/prisma/client";
import { db } from "~/services/db.server";
import type { StaffGrant } from "~/utils/forms/staff";
import { isStaffRole, type StaffRole } from "~/utils/staff-roles";
import { activityMessage, logActivity, SYSTEM_ACTOR, type AdminActor } from "./activity.server";
import { hashPin, matchesHash, verifyPin } from "./pins.server";

// Serialises changes to who is station manager, so two requests cannot both take the first
// manager's place, nor both demote "the other" last manager.
const MANAGER_LOCK = 3100031;

/** A refused staff change: a message key the route translates. */
export class StaffError extends Error {
  name = "StaffError";
}

/** The actor of a staff screen action (the guard's StaffActor has these). */
export type StaffActorRef = AdminActor & { role: StaffRole };

/** The staff, with their linked crew profile and live admin sessions, for the Staff screen. */
export async function listStaff() {
  const now = new Date();
  const users = await db().user.findMany({
    where: { staffRole: { not: null } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      email: true,
      staffRole: true,
      crewMember: { select: { id: true, name: true, shows: { select: { show: { select: { id: true, name: true } } } } } },
      adminSessions: { where: { expiresAt: { gt: now } }, select: { id: true } },
    },
  });
  return users.map(({ adminSessions, crewMember, staffRole, ...user }) => ({
    ...user,
    role: staffRole as StaffRole,
    crew: crewMember && { id: crewMember.id, name: crewMember.name, shows: crewMember.shows.map((host) => host.show) },
    liveSessions: adminSessions.length,
  }));
}

// A session's id is its cookie's secret value: pages name a session by a hash of it instead.
export function sessionHandle(adminSessionId: string): string {
  return createHash("sha256").update(adminSessionId).digest("base64url");
}

/** A staff member's own live admin sessions, newest first (the Staff screen's "Your sessions"), each named by its handle. */
export async function listOwnAdminSessions(userId: string) {
  const sessions = await db().adminSession.findMany({
    where: { userId, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, createdAt: true, clientIp: true, userAgent: true },
  });
  return sessions.map(({ id, ...session }) => ({ handle: sessionHandle(id), ...session }));
}

async function managerCount(tx: Prisma.TransactionClient): Promise<number> {
  return tx.user.count({ where: { staffRole: "manager" } });
}

async function expireAdminSessions(tx: Prisma.TransactionClient, where: Prisma.AdminSessionWhereInput): Promise<number> {
  const now = new Date();
  const ended = await tx.adminSession.updateMany({ where: { ...where, expiresAt: { gt: now } }, data: { expiresAt: now } });
  return ended.count;
}

/**
 * Gives a listener's account a staff role (or another role), and links the crew profile a Host's
 * shows follow from. The station keeps at least one manager.
 */
export async function grantStaffRole(grant: StaffGrant, actor: AdminActor): Promise<{ name: string }> {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MANAGER_LOCK})`;
    const user = await tx.user.findUnique({ where: { email: grant.email }, select: { id: true, name: true, staffRole: true } });
    if (!user) throw new StaffError("admin.staffNoAccount");
    if (user.staffRole === "manager" && grant.role !== "manager" && (await managerCount(tx)) <= 1) throw new StaffError("admin.staffLastManager");
    if (grant.role === "host" && !grant.crewMemberId) throw new StaffError("admin.staffHostNeedsCrew");
    if (grant.crewMemberId) {
      const crew = await tx.crewMember.findUnique({ where: { id: grant.crewMemberId }, select: { userId: true } });
      if (!crew) throw new StaffError("admin.staffCrewGone");
      if (crew.userId && crew.userId !== user.id) throw new StaffError("admin.staffCrewTaken");
      await tx.crewMember.updateMany({ where: { userId: user.id, id: { not: grant.crewMemberId } }, data: { userId: null } });
      await tx.crewMember.update({ where: { id: grant.crewMemberId }, data: { userId: user.id } });
    }
    await tx.user.update({ where: { id: user.id }, data: { staffRole: grant.role } });
    await logActivity(tx, actor, "staff.granted", activityMessage("admin.activityStaffGranted", { name: user.name, role: grant.role }));
    return { name: user.name };
  });
}

/** Takes a staff member's role away and ends their admin sessions at once, on every instance (the next request reads the row). */
export async function revokeStaffRole(userId: string, actor: AdminActor): Promise<{ name: string }> {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MANAGER_LOCK})`;
    const user = await tx.user.findUnique({ where: { id: userId }, select: { id: true, name: true, staffRole: true } });
    if (!user || !user.staffRole) throw new StaffError("admin.staffGone");
    if (user.staffRole === "manager" && (await managerCount(tx)) <= 1) throw new StaffError("admin.staffLastManager");
    await tx.user.update({ where: { id: userId }, data: { staffRole: null, pinHash: null } });
    await expireAdminSessions(tx, { userId });
    await logActivity(tx, actor, "staff.revoked", activityMessage("admin.activityStaffRevoked", { name: user.name }));
    return { name: user.name };
  });
}

/** A manager ends all of another staff member's admin sessions (they enter their PIN again). */
export async function endStaffSessions(userId: string, actor: AdminActor): Promise<{ name: string; count: number }> {
  return db().$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { id: userId }, select: { name: true, staffRole: true } });
    if (!user || !user.staffRole) throw new StaffError("admin.staffGone");
    const count = await expireAdminSessions(tx, { userId });
    await logActivity(tx, actor, "staff.sessionsEnded", activityMessage("admin.activityStaffSessionsEnded", { name: user.name }));
    return { name: user.name, count };
  });
}

/** A staff member signs one of their own admin sessions out, named by its handle (only their own sessions are looked at). */
export async function endOwnAdminSession(userId: string, handle: string): Promise<boolean> {
  const sessions = await db().adminSession.findMany({ where: { userId, expiresAt: { gt: new Date() } }, select: { id: true } });
  const session = sessions.find((candidate) => sessionHandle(candidate.id) === handle);
  return session ? (await expireAdminSessions(db(), { userId, id: session.id })) > 0 : false;
}

/** A staff member's own admin PIN (from then on the station's PIN no longer opens admin for them). */
export async function setOwnPin(userId: string, pin: string, actor: AdminActor): Promise<void> {
  const pinHash = await hashPin(pin);
  await db().$transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { pinHash } });
    await logActivity(tx, actor, "staff.pinChanged", activityMessage("admin.activityOwnPinChanged"));
  });
}

/** A signed-in account's staff standing, for the PIN dialog: its role, and whether it has a PIN of its own. */
export async function staffStanding(userId: string): Promise<{ role: StaffRole | null; name: string; ownPin: boolean } | null> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { name: true, staffRole: true, pinHash: true } });
  if (!user) return null;
  return { role: isStaffRole(user.staffRole) ? user.staffRole : null, name: user.name, ownPin: user.pinHash !== null };
}

/** A staff member's PIN: their own when they set one, else the station's admin PIN. */
export async function verifyStaffPin(userId: string, pin: string): Promise<boolean> {
  const user = await db().user.findUnique({ where: { id: userId }, select: { pinHash: true } });
  if (!user) return false;
  return user.pinHash ? matchesHash(pin, user.pinHash) : verifyPin("admin", pin);
}

/**
 * On a station without a manager, the first signed-in listener to enter the admin PIN becomes
 * its manager. False when someone else got there first.
 */
export async function claimFirstManager(userId: string): Promise<boolean> {
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${MANAGER_LOCK})`;
    if ((await managerCount(tx)) > 0) return false;
    const user = await tx.user.update({ where: { id: userId }, data: { staffRole: "manager" }, select: { name: true } });
    await logActivity(
      tx,
      { ...SYSTEM_ACTOR, userId, name: user.name },
      "staff.firstManager",
      activityMessage("admin.activityFirstManager", { name: user.name }),
    );
    return true;
  });
}

/**
 * The operator's way to name a manager on an existing station (`npm run staff -- grant <email> manager`):
 * the same grant as the Staff screen's, written by the system.
 */
export async function grantFromCommandLine(email: string, role: StaffRole, crewMemberId = ""): Promise<{ name: string }> {
  return grantStaffRole({ email: email.trim().toLowerCase(), role, crewMemberId }, SYSTEM_ACTOR);
}

/** The shows a Host may change: those their linked crew profile hosts. */
export async function hostedShowIds(userId: string): Promise<string[]> {
  const shows = await db().show.findMany({ where: { hosts: { some: { crewMember: { userId } } } }, select: { id: true } });
  return shows.map((show) => show.id);
}

/** The shows an actor may change: every show (null) for managers and producers, a Host's own otherwise. */
export async function showScope(actor: { role: StaffRole; userId?: string | null }): Promise<string[] | null> {
  if (actor.role !== "host") return null;
  return actor.userId ? hostedShowIds(actor.userId) : [];
}

/** Whether a show is within a scope from showScope (null: every show). */
export function inScope(scope: string[] | null, showId: string | null | undefined): boolean {
  return scope === null || (typeof showId === "string" && scope.includes(showId));
}

/** The show a time slot belongs to (null when there is no such slot): a Host's changes are checked against it. */
export async function showOfSlot(slotId: string): Promise<string | null> {
  const slot = await db().showSlot.findUnique({ where: { id: slotId }, select: { showId: true } });
  return slot?.showId ?? null;
}

/** The show an episode belongs to (null when none, or no such episode). */
export async function showOfEpisode(episodeId: number): Promise<string | null> {
  const episode = await db().podcastEpisode.findUnique({ where: { id: episodeId }, select: { showId: true } });
  return episode?.showId ?? null;
}

/** The show an archived airing belongs to (null when there is no such recording). */
export async function showOfRecording(recordingId: string): Promise<string | null> {
  const recording = await db().showRecording.findUnique({ where: { id: recordingId }, select: { showId: true } });
  return recording?.showId ?? null;
}

/** A show's hosts as they are (a Host edits their show but not who hosts it). */
export async function currentHostIds(showId: string): Promise<string[]> {
  const hosts = await db().showHost.findMany({ where: { showId }, orderBy: { position: "asc" }, select: { crewMemberId: true } });
  return hosts.map((host) => host.crewMemberId);
}
