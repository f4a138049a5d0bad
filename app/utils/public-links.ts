/**
 * The public links, in the order the station lists them (header, drawer, footer). Labels are
 * message keys: the components translate them (the original app's nav words, the same in every language).
 * Apart from the rest of the site's pages (./site-pages): every page's header and footer need these,
 * the admin table only staff, and /listen's first-load JavaScript has a budget (issue 14).
 */
export const publicLinks = [
  { to: "/listen", labelKey: "common.navListen" },
  { to: "/watch", labelKey: "common.navWatch" },
  { to: "/news", labelKey: "common.navNews" },
  { to: "/chartcontent", labelKey: "common.navChart" },
  { to: "/CrewSpin", labelKey: "common.navCrew" },
  { to: "/events", labelKey: "common.navEvents" },
] as const;
