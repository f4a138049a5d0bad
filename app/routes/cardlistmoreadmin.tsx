import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { CardImageTiles } from "~/components/admin/CardImageTiles";
import { EpisodeForm } from "~/components/EpisodeForm";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { cardImageHandlers, listCardImages } from "~/models/episodes.server";
import { listShowChoices } from "~/models/shows.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { toDateTimeLocal } from "~/utils/time-zone";

export const meta: MetaFunction = () => [{ title: "Podcast cards · Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const timeZone = getConfig().stationTimezone;
  const [cards, shows] = await Promise.all([listCardImages(10), listShowChoices()]);
  return { cards, shows, defaultPublishedAt: toDateTimeLocal(new Date(), timeZone), timeZone };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  return answerAdminForm(request, cardImageHandlers({ adminSessionId: session.id }));
}

export default function CardListMoreAdmin() {
  const { cards, shows, defaultPublishedAt, timeZone } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  return (
    <AdminPage
      title="Podcast cards"
      intro="The ten newest episodes, as listeners see them on VIEW MORE. A card is an episode: its image is the episode's cover, and it plays the episode's own audio."
    >
      <p className="admin-note">
        Titles, descriptions, audio and publish dates of every episode are on <Link to="/episodes-admin">EPISODES</Link>.
      </p>
      <AdminSection
        id="cards-title"
        title="The ten newest cards"
        description="Deleting a card's image does not leave the card blank: it falls back to the station's own artwork until you upload a new image."
      >
        {cards.length === 0 ? (
          <p className="empty-state">
            <Icon name="radio" />
            No podcast cards yet. Add the first one below.
          </p>
        ) : (
          <CardImageTiles cards={cards} withDelete />
        )}
      </AdminSection>
      <AdminSection
        id="card-add-title"
        title="Add a new card"
        description="A new card is a new episode with its own audio, the same as uploading one on EPISODES. Published now, it becomes the newest card."
      >
        <EpisodeForm editing={null} defaultPublishedAt={defaultPublishedAt} timeZone={timeZone} returnTo="/cardlistmoreadmin" shows={shows} />
      </AdminSection>
    </AdminPage>
  );
}
