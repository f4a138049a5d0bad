import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { getCurrentUser } from "~/auth.server";
import { Link, useLoaderData } from "@remix-run/react";
import { useRef } from "react";
import { Icon } from "~/components/Icon";
import { PodcastCardList } from "~/components/PodcastCard";
import { listFavoriteEpisodes } from "~/models/favorites.server";
import { withSiteMeta } from "~/utils/meta";

export const meta: MetaFunction = ({ matches }) => withSiteMeta(matches, [{ title: "FAVORITE PODCAST" }]);

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
  return (
    <section className="container section" aria-labelledby="favorites-title">
      <div className="section-head">
        <h1 id="favorites-title" className="section-title">
          FAVORITE PODCAST
        </h1>
      </div>
      {!signedIn ? (
        <div className="empty-state">
          <Icon name="heart" />
          <p>Sign in to keep your favorite episodes in one place.</p>
          <p>
            <Link to="/login?redirectTo=%2Ffavorites" className="button">
              Sign in
            </Link>{" "}
            <Link to="/register" className="button button--ghost">
              Register
            </Link>
          </p>
        </div>
      ) : episodes.length === 0 ? (
        <div className="empty-state">
          <Icon name="heart" />
          <p>No favorites yet. Tap the heart on any episode to save it here.</p>
          <p>
            <Link to="/listen" className="button button--ghost">
              Browse episodes
            </Link>
          </p>
        </div>
      ) : (
        <PodcastCardList episodes={episodes} label="Your favorite episodes" />
      )}
    </section>
  );
}
