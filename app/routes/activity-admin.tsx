import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { ActivityList } from "~/components/admin/ActivityList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import type { MessageKey } from "~/i18n/keys";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { activityFilterChoices, activityFilterFrom, listActivity } from "~/models/activity.server";
import { requireStaff } from "~/services/admin-session.server";
import { getConfig } from "~/services/config.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.activityMetaTitle") }, { name: "robots", content: "noindex" }];

const PAGE_SIZE = 200;

// The kinds of things the log records (an action's first word); one the list does not know yet shows as it is stored.
const ENTITY_LABEL_KEYS: Record<string, MessageKey> = {
  crew: "admin.entityCrew",
  demo: "admin.entityDemo",
  embed: "admin.entityEmbed",
  episode: "admin.entityEpisode",
  event: "admin.entityEvent",
  pin: "admin.entityPin",
  schedule: "admin.entitySchedule",
  show: "admin.entityShow",
  site: "admin.entitySite",
  staff: "admin.entityStaff",
  station: "admin.entityStation",
};

// The activity log, filtered by person and by the kind of thing changed (a plain GET form: works without JavaScript).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "station");
  const filter = activityFilterFrom(new URL(request.url).searchParams);
  const [items, choices] = await Promise.all([listActivity({ ...filter, limit: PAGE_SIZE }), activityFilterChoices()]);
  const query = new URLSearchParams({ ...(filter.person ? { person: filter.person } : {}), ...(filter.entity ? { entity: filter.entity } : {}) });
  return {
    items: items.map(({ actorUserId: _actorUserId, ...item }) => item),
    choices,
    filter,
    csvUrl: `/activity.csv${query.size ? `?${query}` : ""}`,
    timeZone: getConfig().stationTimezone,
  };
}

export default function ActivityAdmin() {
  const { items, choices, filter, csvUrl, timeZone } = useLoaderData<typeof loader>();
  const { t } = useT();
  return (
    <AdminPage title={t("admin.activityPageTitle")} intro={t("admin.activityPageIntro")}>
      <AdminSection
        id="activity-filter-title"
        title={t("admin.activityFilterTitle")}
        actions={
          <a href={csvUrl} className="button button--ghost" download>
            {t("admin.activityCsv")}
          </a>
        }
      >
        <Form method="get" className="admin-form admin-form--inline" aria-label={t("admin.activityFilterTitle")}>
          <div className="admin-field">
            <label htmlFor="activity-person" className="admin-label">
              {t("admin.activityPerson")}
            </label>
            <select id="activity-person" name="person" className="admin-input" defaultValue={filter.person ?? ""}>
              <option value="">{t("admin.activityEveryone")}</option>
              {choices.people.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </select>
          </div>
          <div className="admin-field">
            <label htmlFor="activity-entity" className="admin-label">
              {t("admin.activityEntity")}
            </label>
            <select id="activity-entity" name="entity" className="admin-input" defaultValue={filter.entity ?? ""}>
              <option value="">{t("admin.activityEverything")}</option>
              {choices.entities.map((entity) => (
                <option key={entity} value={entity}>
                  {ENTITY_LABEL_KEYS[entity] ? t(ENTITY_LABEL_KEYS[entity]) : entity}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button">
            {t("admin.activityFilter")}
          </button>
        </Form>
      </AdminSection>
      <AdminSection id="activity-list-title" title={t("admin.activityTitle")} description={t("admin.activityShown", { count: items.length })}>
        <ActivityList items={items} timeZone={timeZone} />
      </AdminSection>
    </AdminPage>
  );
}
