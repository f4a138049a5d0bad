/**
 * Staff roles and what each may do in the admin area (issue 31). The server checks a permission
 * in every admin loader and action (requireStaff); the header hides links a role cannot open.
 * Plain data shared by browser and server.
 */

export const STAFF_ROLES = ["manager", "producer", "host"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

/**
 * What a guard asks for:
 * - `station`: staff, station settings, PINs, the activity log (station managers);
 * - `content`: episodes, card images, chart, events, crew, the song history export (and everything below);
 * - `shows`: the schedule, episodes and recordings pages, where a Host sees and changes only the shows they host;
 * - `account`: a staff member's own PIN and admin sessions.
 */
export type StaffPermission = "station" | "content" | "shows" | "account";

const ALLOWED: Record<StaffPermission, readonly StaffRole[]> = {
  station: ["manager"],
  content: ["manager", "producer"],
  shows: ["manager", "producer", "host"],
  account: ["manager", "producer", "host"],
};

export function roleMay(role: StaffRole, permission: StaffPermission): boolean {
  return ALLOWED[permission].includes(role);
}

/** The roles a permission admits (the route-walk test reads this to know what each role should get). */
export function rolesFor(permission: StaffPermission): readonly StaffRole[] {
  return ALLOWED[permission];
}

/** Message keys of the role names (admin namespace). */
export const ROLE_LABEL_KEYS = {
  manager: "admin.roleManager",
  producer: "admin.roleProducer",
  host: "admin.roleHost",
} as const satisfies Record<StaffRole, string>;
