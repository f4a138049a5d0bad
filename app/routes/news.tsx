import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CategoryList } from "~/components/CategoryMenu";
import { Icon } from "~/components/Icon";
import { NewsCardList } from "~/components/NewsCard";
import { PodcastCardList } from "~/components/PodcastCard";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listLatestEpisodes } from "~/models/episodes.server";
import { getStationIdentity } from "~/models/station.server";
import { getNewsPage } from "~/services/news.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loadNews> = ({ data, matches }) => {
  const { t } = metaTranslator(matches);
  return withSiteMeta(matches, [{ title: data ? t("news.metaTitle", { station: data.stationName }) : t("news.title") }]);
};

async function loadNews({ request }: LoaderFunctionArgs) {
  // The news dates are formatted on the server, in the page's language.
  const { locale } = await requestTranslator(request);
  const [news, episodes] = await Promise.all([getNewsPage(new URL(request.url).searchParams.get("category"), locale), listLatestEpisodes(5)]);
  return { news, episodes, stationName: getStationIdentity().name };
}

// Typed through loadNews: without the single-fetch type flag, data()'s wrapper would hide the fields.
export async function loader(args: LoaderFunctionArgs) {
  const page = await loadNews(args);
  return data(page, { status: page.news.choice.kind === "unknown" ? 404 : 200 });
}

export default function News() {
  const { news, episodes } = useLoaderData<typeof loadNews>();
  const { t } = useT();
  const { choice, posts, categories } = news;
  const current = choice.kind === "category" ? choice.category.name : choice.kind === "latest" ? "terbaru" : undefined;
  // "Terbaru" is the API's name of the latest posts, shown like its other category names.
  const heading = choice.kind === "category" ? choice.category.label : t("news.latestHeading");

  return (
    <div className="container">
      <section className="section" aria-labelledby="news-title">
        <div className="news-head">
          <h1 id="news-title" className="section-title">
            {t("news.title")}
          </h1>
          {categories.length > 0 && <CategoryList categories={categories} current={current} label={t("news.categoriesLabel")} />}
        </div>

        {choice.kind === "unknown" || choice.kind === "unverifiable" ? (
          <div className="empty-state" role="status">
            <Icon name="radio" />
            <p>{t(choice.kind === "unknown" ? "news.unknownCategory" : "news.unverifiableCategory", { name: choice.name })}</p>
            <Link className="button button--ghost" to="/news">
              {t("news.seeLatest")}
            </Link>
          </div>
        ) : posts?.available ? (
          <>
            <h2 className="news-subtitle">{heading}</h2>
            {posts.fromCache && (
              <p className="news-notice" role="status">
                {t("news.fromCache", { time: posts.fetchedAtLabel })}
              </p>
            )}
            {posts.cards.length > 0 ? (
              <NewsCardList posts={posts.cards} label={t("news.listLabel", { heading })} />
            ) : (
              <p className="empty-state">{t("news.emptyCategory")}</p>
            )}
          </>
        ) : (
          <div className="empty-state" role="status">
            <Icon name="radio" />
            <p>{t("news.unavailable")}</p>
          </div>
        )}
      </section>

      <section className="section" aria-labelledby="news-podcast">
        <div className="section-head">
          <h2 id="news-podcast" className="section-title">
            {t("news.podcastTitle")}
          </h2>
          <Link to="/cardlistmore" className="button button--ghost">
            {t("news.viewMore")}
          </Link>
        </div>
        <PodcastCardList episodes={episodes} label={t("news.latestEpisodesLabel")} />
      </section>
    </div>
  );
}
