import { Form, useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useT } from "~/i18n/translate";
import type { loader as rootLoader } from "~/root";
import { Icon } from "./Icon";

/**
 * The heart on podcast cards and the play page. Signed in, it marks or unmarks
 * the episode (a fetcher with JavaScript, a plain post that comes back here
 * without); for guests it posts the same mark, which waits in their session while they sign in or
 * register and is saved then (app/auth.server.ts). A marked heart is filled, not only pressed.
 */
export function FavoriteButton({ episodeId, title }: { episodeId: number; title: string }) {
  const { t } = useT();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const fetcher = useFetcher();
  const location = useLocation();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const here = location.pathname + location.search;

  if (!root?.user) {
    return (
      <Form method="post" action={`/favorites/${episodeId}`} className="favorite-form">
        <input type="hidden" name="favorite" value="true" />
        <input type="hidden" name="redirectTo" value={here} />
        <button type="submit" className="favorite-button" aria-label={t("podcast.favoriteSignInLabel", { title })} title={t("podcast.favoriteSignInTitle")}>
          <Icon name="heart" />
        </button>
      </Form>
    );
  }

  const saved = root.user.favoriteEpisodeIds.includes(episodeId);
  // Show the listener's choice at once; the root loader confirms it after the post.
  const favorite = fetcher.formData ? fetcher.formData.get("favorite") === "true" : saved;
  return (
    <fetcher.Form method="post" action={`/favorites/${episodeId}`} className="favorite-form">
      <input type="hidden" name="favorite" value={String(!favorite)} />
      {/* Only a plain post (no JavaScript yet) needs to be sent back to this page. */}
      {!hydrated && <input type="hidden" name="redirectTo" value={here} />}
      <button
        type="submit"
        className="favorite-button"
        aria-pressed={favorite}
        aria-label={t("podcast.favoriteLabel", { title })}
        title={t(favorite ? "podcast.removeFavorite" : "podcast.addFavorite")}
      >
        <Icon name={favorite ? "heartFilled" : "heart"} />
      </button>
    </fetcher.Form>
  );
}
