import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CategoryList } from "~/components/CategoryMenu";
import { Icon } from "~/components/Icon";
import { NewsCardList } from "~/components/NewsCard";
import { PodcastCardList } from "~/components/PodcastCard";
import { listLatestEpisodes } from "~/models/episodes.server";
import { getStationIdentity } from "~/models/station.server";
import { getNewsPage } from "~/services/news.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction<typeof loadNews> = ({ data, matches }) => withSiteMeta(matches, [{ title: data ? `NEWS · ${data.stationName}` : "NEWS" }]);

async function loadNews({ request }: LoaderFunctionArgs) {
  const [news, episodes] = await Promise.all([getNewsPage(new URL(request.url).searchParams.get("category")), listLatestEpisodes(5)]);
  return { news, episodes, stationName: getStationIdentity().name };
}

// Typed through loadNews: without the single-fetch type flag, data()'s wrapper would hide the fields.
export async function loader(args: LoaderFunctionArgs) {
  const page = await loadNews(args);
  return data(page, { status: page.news.choice.kind === "unknown" ? 404 : 200 });
}

export default function News() {
  const { news, episodes } = useLoaderData<typeof loadNews>();
  const { choice, posts, categories } = news;
  const current = choice.kind === "category" ? choice.category.name : choice.kind === "latest" ? "terbaru" : undefined;
  const heading = choice.kind === "category" ? choice.category.label : "Terbaru";

  return (
    <div className="container">
      <section className="section" aria-labelledby="news-title">
        <div className="news-head">
          <h1 id="news-title" className="section-title">
            NEWS
          </h1>
          {categories.length > 0 && <CategoryList categories={categories} current={current} label="News categories" />}
        </div>

        {choice.kind === "unknown" || choice.kind === "unverifiable" ? (
          <div className="empty-state" role="status">
            <Icon name="radio" />
            <p>
              {choice.kind === "unknown"
                ? `There is no news category called “${choice.name}”. Pick one of the categories above.`
                : `News categories are unavailable right now, so we cannot show “${choice.name}”.`}
            </p>
            <Link className="button button--ghost" to="/news">
              See the latest news
            </Link>
          </div>
        ) : posts?.available ? (
          <>
            <h2 className="news-subtitle">{heading}</h2>
            {posts.fromCache && (
              <p className="news-notice" role="status">
                The news service is not answering right now, so these are the headlines from {posts.fetchedAtLabel}.
              </p>
            )}
            {posts.cards.length > 0 ? (
              <NewsCardList posts={posts.cards} label={`${heading} news`} />
            ) : (
              <p className="empty-state">There are no stories in this category yet.</p>
            )}
          </>
        ) : (
          <div className="empty-state" role="status">
            <Icon name="radio" />
            <p>News is unavailable right now. Please try again in a few minutes.</p>
          </div>
        )}
      </section>

      <section className="section" aria-labelledby="news-podcast">
        <div className="section-head">
          <h2 id="news-podcast" className="section-title">
            PODCAST
          </h2>
          <Link to="/cardlistmore" className="button button--ghost">
            VIEW MORE
          </Link>
        </div>
        <PodcastCardList episodes={episodes} label="Latest podcast episodes" />
      </section>
    </div>
  );
}
