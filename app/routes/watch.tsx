import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CategoryMenu, categoryHref } from "~/components/CategoryMenu";
import { Icon } from "~/components/Icon";
import { TrendingList } from "~/components/TrendingList";
import { listTrendingEpisodes } from "~/models/plays.server";
import { getStationIdentity } from "~/models/station.server";
import { listNewsCategories } from "~/services/news.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => withSiteMeta(matches, [{ title: data ? `WATCH · ${data.stationName}` : "WATCH" }]);

export async function loader() {
  const [categories, trending] = await Promise.all([listNewsCategories(), listTrendingEpisodes(7, 10)]);
  return { categories, trending, stationName: getStationIdentity().name };
}

export default function Watch() {
  const { categories, trending } = useLoaderData<typeof loader>();
  return (
    <div className="container">
      <section className="section" aria-labelledby="watch-title">
        <div className="section-head">
          <h1 id="watch-title" className="section-title">
            WATCH
          </h1>
          {categories.length > 0 && <CategoryMenu categories={categories} />}
        </div>
        {categories.length > 0 ? (
          <ul className="category-tiles" aria-label="News categories">
            {categories.map((category) => (
              <li key={category.name}>
                <Link to={categoryHref(category)} className="category-tile" prefetch="intent">
                  <span className="category-tile__label">{category.label}</span>
                  <Icon name="chevronRight" size={20} />
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <div className="empty-state" role="status">
            <Icon name="radio" />
            <p>News categories are unavailable right now. Please try again in a few minutes.</p>
          </div>
        )}
      </section>

      <section className="section" aria-labelledby="trending-title">
        <div className="section-head">
          <h2 id="trending-title" className="section-title">
            TRENDING
          </h2>
          <p className="caption">Most played episodes, last 7 days</p>
        </div>
        {trending.length > 0 ? (
          <TrendingList episodes={trending} />
        ) : (
          <div className="empty-state">
            <Icon name="play" />
            <p>Nothing has been played this week yet. Start an episode and it will show up here.</p>
            <Link className="button button--ghost" to="/cardlistmore">
              Browse episodes
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}
