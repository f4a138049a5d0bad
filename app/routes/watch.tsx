import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CategoryMenu, categoryHref } from "~/components/CategoryMenu";
import { Icon } from "~/components/Icon";
import { TrendingList } from "~/components/TrendingList";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listTrendingEpisodes } from "~/models/plays.server";
import { getStationIdentity } from "~/models/station.server";
import { listNewsCategories } from "~/services/news.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("news.watchMetaTitle", { station: data.stationName }) : t("news.watchTitle") }]);
};

export async function loader() {
  const [categories, trending] = await Promise.all([listNewsCategories(), listTrendingEpisodes(7, 10)]);
  return { categories, trending, stationName: getStationIdentity().name };
}

export default function Watch() {
  const { categories, trending } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <div className="container">
      <section className="section" aria-labelledby="watch-title">
        <div className="section-head">
          <h1 id="watch-title" className="section-title">
            {t("news.watchTitle")}
          </h1>
          {categories.length > 0 && <CategoryMenu categories={categories} />}
        </div>
        {categories.length > 0 ? (
          <ul className="category-tiles" aria-label={t("news.categoriesLabel")}>
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
            <p>{t("news.categoriesUnavailable")}</p>
          </div>
        )}
      </section>

      <section className="section" aria-labelledby="trending-title">
        <div className="section-head">
          <h2 id="trending-title" className="section-title">
            {t("news.trendingTitle")}
          </h2>
          <p className="caption">{t("news.trendingCaption")}</p>
        </div>
        {trending.length > 0 ? (
          <TrendingList episodes={trending} />
        ) : (
          <div className="empty-state">
            <Icon name="play" />
            <p>{t("news.trendingEmpty")}</p>
            <Link className="button button--ghost" to="/cardlistmore">
              {t("news.browseEpisodes")}
            </Link>
          </div>
        )}
      </section>
    </div>
  );
}
