/** The public links, in the order the station lists them (header, drawer, footer). */
export const publicLinks = [
  { to: "/listen", label: "LISTEN" },
  { to: "/watch", label: "WATCH" },
  { to: "/news", label: "NEWS" },
  { to: "/chartcontent", label: "CHART" },
  { to: "/CrewSpin", label: "CREW" },
  { to: "/events", label: "EVENTS" },
] as const;

/** The admin area's pages, shown in the header's ADMIN strip while an admin session is open. */
export const adminLinks = [
  { to: "/dashboard-admin", label: "DASHBOARD" },
  { to: "/chartcontentadmin", label: "CHART" },
  { to: "/CrewAdmin", label: "CREW" },
  { to: "/eventsAdmin", label: "EVENTS" },
  { to: "/schedule-admin", label: "SCHEDULE" },
  { to: "/cardlistmoreadmin", label: "PODCAST CARDS" },
  { to: "/episodes-admin", label: "EPISODES" },
] as const;
