import { adminHome, adminLinksFor, isAdminPage } from "./site-pages";
import { roleMay, STAFF_ROLES } from "./staff-roles";

describe("staff roles", () => {
  it("gives a manager everything, a producer the content and shows, a host their shows and own account", () => {
    expect(STAFF_ROLES.filter((role) => roleMay(role, "station"))).toEqual(["manager"]);
    expect(STAFF_ROLES.filter((role) => roleMay(role, "content"))).toEqual(["manager", "producer"]);
    expect(STAFF_ROLES.filter((role) => roleMay(role, "shows"))).toEqual(["manager", "producer", "host"]);
    expect(STAFF_ROLES.filter((role) => roleMay(role, "account"))).toEqual(["manager", "producer", "host"]);
  });

  it("shows each role only the admin pages it may open, and lands it on one of them", () => {
    expect(adminLinksFor("host").map((link) => link.to)).toEqual([
      "/schedule-admin",
      "/episodes-admin",
      "/recordings-admin",
      "/audience-admin",
      "/staff-admin",
    ]);
    expect(adminLinksFor("producer").map((link) => link.to)).not.toContain("/activity-admin");
    expect(adminLinksFor("producer").map((link) => link.to)).not.toContain("/settings-admin");
    expect(adminLinksFor("manager").map((link) => link.to)).toContain("/settings-admin");
    expect(adminLinksFor("manager").length).toBeGreaterThan(adminLinksFor("producer").length);
    for (const role of STAFF_ROLES) expect(isAdminPage(adminHome(role), role), role).toBe(true);
    expect(isAdminPage("/dashboard-admin", "host")).toBe(false);
    expect(isAdminPage("/dashboard-admin")).toBe(true);
  });
});
