import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getCurrentUser } from "~/auth.server";
import { Link, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { Icon } from "~/components/Icon";
import { PodcastCardList } from "~/components/PodcastCard";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listFavoriteEpisodes } from "~/models/favorites.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: metaTranslator(matches).t("podcast.favoritesTitle") }]);

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request);
  return { signedIn: user !== null, episodes: user ? await listFavoriteEpisodes(user.id) : [] };
}

/**
 * The cards shown on this visit: the saved favourites plus any the listener
 * unmarked here. A card that vanished the moment its heart was tapped would
 * make a slip permanent; kept in place with an empty heart, one more tap puts
 * it back. Leaving or reloading the page shows only what is saved.
 */
function useCardsKeptThisVisit<T extends { id: number }>(saved: T[]): T[] {
  const kept = useRef(saved);
  const keptIds = new Set(kept.current.map((episode) => episode.id));
  const added = saved.filter((episode) => !keptIds.has(episode.id));
  if (added.length > 0) kept.current = [...added, ...kept.current];
  return kept.current;
}

export default function Favorites() {
  const { signedIn, episodes: saved } = useLoaderData<typeof loader>();
  const episodes = useCardsKeptThisVisit(saved);
  const { t } = useT();
  return (
    <section className="container section" aria-labelledby="favorites-title">
      <div className="section-head">
        <h1 id="favorites-title" className="section-title">
          {t("podcast.favoritesTitle")}
        </h1>
      </div>
      {!signedIn ? (
        <div className="empty-state">
          <Icon name="heart" />
          <p>{t("podcast.favoritesSignIn")}</p>
          <p>
            <Link to="/login?redirectTo=%2Ffavorites" className="button">
              {t("podcast.signIn")}
            </Link>{" "}
            <Link to="/register" className="button button--ghost">
              {t("podcast.register")}
            </Link>
          </p>
        </div>
      ) : episodes.length === 0 ? (
        <div className="empty-state">
          <Icon name="heart" />
          <p>{t("podcast.favoritesEmpty")}</p>
          <p>
            <Link to="/listen" className="button button--ghost">
              {t("podcast.browseEpisodes")}
            </Link>
          </p>
        </div>
      ) : (
        <PodcastCardList episodes={episodes} label={t("podcast.favoriteEpisodes")} />
      )}
    </section>
  );
}
