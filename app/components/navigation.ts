/** The public links, in the order the station lists them (header, drawer, footer). */
export const publicLinks = [
  { to: "/listen", label: "LISTEN" },
  { to: "/watch", label: "WATCH" },
  { to: "/news", label: "NEWS" },
  { to: "/chartcontent", label: "CHART" },
  { to: "/CrewSpin", label: "CREW" },
  { to: "/events", label: "EVENTS" },
] as const;
