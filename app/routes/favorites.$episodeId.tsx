import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { parseEpisodeId } from "~/models/episodes.server";
import { setFavorite } from "~/models/favorites.server";
import { favoriteAfterSignIn, getCurrentUser, safeRedirect } from "~/auth.server";
import { requestTranslator } from "~/i18n/language.server";
import { readForm } from "~/services/form-body.server";

// Nothing to show at this address: a visit lands on the list.
export function loader() {
  return redirect("/favorites");
}

// A resource route: the FavoriteButton posts here (fetcher, or a plain form without JavaScript).
// Marks (favorite=true) or unmarks (favorite=false) an episode for the signed-in listener; a guest's mark waits for sign-in.
export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request);
  const redirectTo = form.get("redirectTo");
  const user = await getCurrentUser(request);
  const choice = form.get("favorite");
  if (!user) {
    const back = safeRedirect(redirectTo, "/favorites");
    // A guest's ♡ is remembered through sign-in or registration; anything else just leads there.
    const episodeId = choice === "true" ? parseEpisodeId(params.episodeId) : null;
    return episodeId === null ? redirect(`/login?redirectTo=${encodeURIComponent(back)}`) : favoriteAfterSignIn(request, episodeId, back);
  }
  if (choice !== "true" && choice !== "false")
    return Response.json({ error: (await requestTranslator(request)).t("podcast.favoriteChoiceInvalid") }, { status: 400 });
  const episodeId = parseEpisodeId(params.episodeId);
  const favorite = choice === "true";
  if (episodeId === null || !(await setFavorite(user.id, episodeId, favorite))) {
    return Response.json({ error: (await requestTranslator(request)).t("podcast.episodeMissing") }, { status: 404 });
  }
  return redirectTo ? redirect(safeRedirect(redirectTo)) : Response.json({ favorite });
}
