import type { MetaDescriptor } from "@remix-run/node";

interface MetaMatch {
  id: string;
  meta: MetaDescriptor[];
}

/**
 * A page's own meta tags plus the site-wide ones from the root route (the
 * description), which Remix would otherwise drop as soon as a page sets a title.
 */
export function withSiteMeta(matches: MetaMatch[], own: MetaDescriptor[]): MetaDescriptor[] {
  const root = matches.find((match) => match.id === "root")?.meta ?? [];
  const ownNames = new Set(own.flatMap((tag) => ("name" in tag ? [tag.name] : [])));
  const inherited = root.filter((tag) => !("title" in tag) && !("name" in tag && ownNames.has(tag.name)));
  return [...inherited, ...own];
}
