import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { CardImageTiles } from "~/components/admin/CardImageTiles";
import { EpisodeForm } from "~/components/EpisodeForm";
import { Icon } from "~/components/Icon";
import { useLiveData } from "~/hooks/useRealtime";
import { Message } from "~/i18n/Message";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { cardImageHandlers, listCardImages } from "~/models/episodes.server";
import { listShowChoices } from "~/models/shows.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { toDateTimeLocal } from "~/utils/time-zone";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.cardsMetaTitle") }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "content");
  const timeZone = getConfig().stationTimezone;
  const [cards, shows] = await Promise.all([listCardImages(10), listShowChoices()]);
  return { cards, shows, defaultPublishedAt: toDateTimeLocal(new Date(), timeZone), timeZone };
}

export async function action({ request }: ActionFunctionArgs) {
  return answerAdminForm(request, cardImageHandlers(await requireStaff(request, "content")));
}

export default function CardListMoreAdmin() {
  const { cards, shows, defaultPublishedAt, timeZone } = useLoaderData<typeof loader>();
  useLiveData("images:changed");
  const { t } = useT();
  return (
    <AdminPage title={t("admin.cardsTitle")} intro={t("admin.cardsIntro")}>
      <p className="admin-note">
        <Message id="admin.cardsEpisodesNote" components={{ 0: <Link to="/episodes-admin" /> }} />
      </p>
      <AdminSection id="cards-title" title={t("admin.cardsNewest")} description={t("admin.cardsNewestDescription")}>
        {cards.length === 0 ? (
          <p className="empty-state">
            <Icon name="radio" />
            {t("admin.cardsEmpty")}
          </p>
        ) : (
          <CardImageTiles cards={cards} withDelete />
        )}
      </AdminSection>
      <AdminSection id="card-add-title" title={t("admin.cardsAdd")} description={t("admin.cardsAddDescription")}>
        <EpisodeForm editing={null} defaultPublishedAt={defaultPublishedAt} timeZone={timeZone} returnTo="/cardlistmoreadmin" shows={shows} />
      </AdminSection>
    </AdminPage>
  );
}
