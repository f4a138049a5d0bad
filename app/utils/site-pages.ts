/**
 * The site's pages by URL, in one table (the public links are in ./public-links: the header and
 * footer of every page list them, and the browser loads this module only with the admin strip,
 * for staff). The admin strip lists the admin pages, and they are the only places the admin PIN
 * sends a browser back to; the page cache keeps anonymous renders of the pages marked for it
 * (server/page-cache.ts); the security middleware takes large uploads only where the table says.
 * Exports a page does not use are dropped from the browser bundle (plain data, tree-shaken).
 */
import { roleMay, type StaffPermission, type StaffRole } from "./staff-roles";

/**
 * The admin area's pages, shown in the header's ADMIN strip while an admin session is open, each
 * with the permission its loader's guard asks for (the strip shows a role only what it may open).
 */
export const adminLinks = [
  { to: "/dashboard-admin", labelKey: "common.adminNavDashboard", permission: "content" },
  { to: "/chartcontentadmin", labelKey: "common.adminNavChart", permission: "content" },
  { to: "/CrewAdmin", labelKey: "common.adminNavCrew", permission: "content" },
  { to: "/eventsAdmin", labelKey: "common.adminNavEvents", permission: "content" },
  { to: "/schedule-admin", labelKey: "common.adminNavSchedule", permission: "shows" },
  { to: "/cardlistmoreadmin", labelKey: "common.adminNavPodcastCards", permission: "content" },
  { to: "/episodes-admin", labelKey: "common.adminNavEpisodes", permission: "shows" },
  { to: "/recordings-admin", labelKey: "common.adminNavRecordings", permission: "shows" },
  { to: "/audience-admin", labelKey: "common.adminNavAudience", permission: "shows" },
  { to: "/activity-admin", labelKey: "common.adminNavActivity", permission: "station" },
  { to: "/settings-admin", labelKey: "common.adminNavSettings", permission: "station" },
  { to: "/staff-admin", labelKey: "common.adminNavStaff", permission: "account" },
  { to: "/widgets-admin", labelKey: "common.adminNavWidgets", permission: "content" },
] as const satisfies readonly { to: string; labelKey: string; permission: StaffPermission }[];

/** Where the admin PIN lands without a (valid) page to return to. */
export const ADMIN_HOME = "/dashboard-admin";

/** A role's landing page: the dashboard, or a Host's own shows. */
export function adminHome(role: StaffRole): string {
  return roleMay(role, "content") ? ADMIN_HOME : "/schedule-admin";
}

/** The admin pages a role may open, in the strip's order. */
export function adminLinksFor(role: StaffRole) {
  return adminLinks.filter((link) => roleMay(role, link.permission));
}

/** Whether `pathname` is one of the admin area's pages (the admin PIN returns only to these), for `role` when given. */
export function isAdminPage(pathname: string, role?: StaffRole): boolean {
  return adminLinks.some((link) => link.to === pathname && (!role || roleMay(role, link.permission)));
}

/**
 * Public pages whose anonymous render is the same for every visitor, so the server may keep it
 * (server/page-cache.ts), with the Remix route that must have rendered a kept page. `:id` stands
 * for a whole number.
 */
export const anonymouslyCachedPages = [
  { path: "/listen", route: "routes/listen" },
  { path: "/cardlistmore", route: "routes/cardlistmore" },
  { path: "/events", route: "routes/events" },
  { path: "/chartcontent", route: "routes/chartcontent" },
  { path: "/Chart", route: "routes/Chart" },
  { path: "/CrewSpin", route: "routes/CrewSpin" },
  { path: "/play/:id", route: "routes/play.$podId" },
] as const;

/** Pages whose forms carry episode audio: the only ones that accept bodies up to the upload limit. */
export const largeUploadPages = ["/episodes-admin"] as const;
