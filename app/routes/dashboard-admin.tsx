import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { ActivityList } from "~/components/admin/ActivityList";
import { AdminForm, FormStatus, SubmitButton, type AdminResult } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { CardImageTiles } from "~/components/admin/CardImageTiles";
import { CrewImageTiles } from "~/components/admin/CrewImageTiles";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { Field } from "~/components/admin/Field";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { ReplaceImageForm } from "~/components/admin/ReplaceImageForm";
import { StationEmailPrompt } from "~/components/admin/StationEmailPrompt";
import { useLiveData } from "~/hooks/useRealtime";
import type { loader as rootLoader } from "~/root";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listRecentActivity } from "~/models/activity.server";
import { cardImageHandlers, listCardImages } from "~/models/episodes.server";
import { readDemoRegistry, removeDemoContent } from "~/models/demo-content.server";
import { needsStationEmail, saveStationEmail } from "~/models/feed-identity.server";
import { addCrewImage, deleteCrewImage, listCrewImages, moveCrewImage, moveCrewImageTo, replaceCrewImage } from "~/models/crew.server";
import { rewindUsage } from "~/models/rewind.server";
import { getSiteImage, replaceSiteImage } from "~/models/site-images.server";
import { canonicalOrigin, confirmSiteOrigin } from "~/models/site-origin.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped, permitted, type AdminHandler } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { formatBytes } from "~/services/uploads.server";
import { fieldConstraints, keyedMessage, parseForm } from "~/utils/forms/form";
import { SITE_ORIGIN_INVALID, siteOriginSchema, stationEmailSchema } from "~/utils/forms/station";
import { roleMay } from "~/utils/staff-roles";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("admin.dashboardMetaTitle") }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const actor = await requireStaff(request, "content");
  const [jumbotron, cards, crewImages, activity, askStationEmail, rewind, demo] = await Promise.all([
    getSiteImage("jumbotron"),
    listCardImages(5),
    listCrewImages(),
    listRecentActivity(15),
    needsStationEmail(),
    rewindUsage(),
    readDemoRegistry(),
  ]);
  // The site address: PUBLIC_URL, or the one confirmed here (prefilled from this admin's own request).
  // canonicalOrigin() is PUBLIC_URL's origin when that is set, else the confirmed one (or null).
  const canonical = await canonicalOrigin();
  const siteAddress = { fixed: Boolean(getConfig().publicUrl), origin: canonical ?? new URL(request.url).origin, confirmed: canonical !== null };
  // The one crew picture whose controls are open (see CrewImageTiles).
  const editing = new URL(request.url).searchParams.get("edit");
  // Strings: ICU would group the digits of numbers ("1,234 segments").
  const rewindStorage = { size: formatBytes(rewind.bytes), hours: String(getConfig().rewindHours), segments: String(rewind.segments) };
  return {
    jumbotron,
    cards,
    crewImages,
    activity,
    askStationEmail,
    timeZone: getConfig().stationTimezone,
    siteAddress,
    editing,
    rewindStorage,
    hasDemoContent: demo !== null,
    // The station's own settings (PINs, address, demo removal, jumbotron) are a manager's.
    manages: roleMay(actor.role, "station"),
  };
}

const limits = fieldConstraints(siteOriginSchema);

// Answers are keyed messages (see keyedMessage): answerAdminForm translates them for the admin.
const imageRequired = { ok: false, message: "forms.imageRequired", errors: { image: "forms.imageRequired" } };

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "content");
  const managerOnly = (handler: AdminHandler) => permitted(request, actor, "station", handler);
  return answerAdminForm(request, {
    ...cardImageHandlers(actor),
    // One step back to an empty station: everything the seed added goes (demo-content.server.ts).
    "remove-demo-content": managerOnly(
      pageScoped(async () => ((await removeDemoContent(actor)) ? { ok: true, message: "admin.demoRemoved" } : { ok: false, message: "admin.demoGone" })),
    ),
    "site-origin": managerOnly(async ({ fields }) => {
      if (getConfig().publicUrl) return { ok: false, message: "admin.siteAddressFixed" };
      const check = parseForm(siteOriginSchema, fields, SITE_ORIGIN_INVALID);
      if (!check.ok) return check;
      return { ok: true, message: keyedMessage("admin.siteAddressConfirmed", { origin: await confirmSiteOrigin(check.value.origin, actor) }) };
    }),
    "save-station-email": managerOnly(async ({ fields }) => {
      const check = parseForm(stationEmailSchema, fields, "admin.nothingSaved");
      if (!check.ok) return check;
      const email = await saveStationEmail(check.value.email, actor);
      return { ok: true, message: keyedMessage("admin.stationEmailSaved", { email }) };
    }),
    "replace-jumbotron": managerOnly(async ({ files }) => {
      if (!files.image) return imageRequired;
      await replaceSiteImage("jumbotron", files.image, actor);
      return { ok: true, message: "admin.jumbotronChanged" };
    }),
    "add-crew-image": async ({ files }) => {
      if (!files.image) return imageRequired;
      const key = await addCrewImage(files.image, actor);
      return { ok: true, message: keyedMessage("admin.crewImageAdded", { key }) };
    },
    "replace-crew-image": async ({ fields, files }) => {
      if (!files.image) return imageRequired;
      await replaceCrewImage(fields.key ?? "", files.image, actor);
      return { ok: true, message: keyedMessage("admin.crewImageReplaced", { key: fields.key ?? "" }) };
    },
    "delete-crew-image": pageScoped(async ({ fields }) => {
      await deleteCrewImage(fields.key ?? "", actor);
      return { ok: true, message: keyedMessage("admin.crewImageDeleted", { key: fields.key ?? "" }) };
    }),
    "move-crew-image": pageScoped(async ({ fields }) => {
      const direction = fields.direction === "up" ? "up" : "down";
      const moved = await moveCrewImage(fields.key ?? "", direction === "up" ? -1 : 1, actor);
      const values = { key: fields.key ?? "", direction };
      return moved ? { ok: true, message: keyedMessage("admin.crewImageMoved", values) } : { ok: false, message: keyedMessage("admin.crewImageAtEnd", values) };
    }),
    "move-crew-image-to": pageScoped(async ({ fields }) => {
      const position = Number(fields.position);
      const moved = await moveCrewImageTo(fields.key ?? "", position, actor);
      const values = { key: fields.key ?? "", position: String(position) };
      return moved
        ? { ok: true, message: keyedMessage("admin.crewImageMovedTo", values) }
        : { ok: false, message: keyedMessage("admin.crewImageNotMoved", values) };
    }),
  });
}

export default function DashboardAdmin() {
  const { jumbotron, cards, crewImages, activity, askStationEmail, timeZone, siteAddress, editing, rewindStorage, hasDemoContent, manages } =
    useLoaderData<typeof loader>();
  useLiveData("images:changed", "events:changed", "embeds:changed");
  // A refused replacement keeps that picture's panel open so its message shows where it was sent
  // from, also without JavaScript (whose post carries no ?edit=).
  const answer = useActionData<AdminResult | undefined>();
  const refusedCrewImage = answer && !answer.ok ? /^crew-(Crew\d+)$/.exec(answer.formId)?.[1] : undefined;
  const { t } = useT();
  const settingsPending = useRouteLoaderData<typeof rootLoader>("root")?.settingsPending;
  return (
    <AdminPage title={t("admin.dashboardTitle")} intro={t("admin.dashboardIntro")}>
      {manages && askStationEmail && <StationEmailPrompt />}
      {manages && hasDemoContent && (
        <AdminSection id="demo-content-title" title={t("admin.demoTitle")} collapsible defaultOpen={false}>
          <p className="muted">{t("admin.demoDescription")}</p>
          <DeleteForm
            formId="remove-demo-content"
            intent="remove-demo-content"
            hidden={{}}
            confirm={t("admin.demoRemoveConfirm")}
            label={t("admin.demoRemove")}
            pendingLabel={t("admin.demoRemoving")}
            readAlso=""
          />
        </AdminSection>
      )}
      <div className="admin-columns">
        {manages && (
          <AdminSection id="jumbotron-title" title={t("admin.jumbotron")} collapsible>
            <ReplaceImageForm
              formId="jumbotron"
              intent="replace-jumbotron"
              label={t("admin.jumbotronNew")}
              current={jumbotron}
              currentAlt={t("admin.jumbotronCurrent")}
              aspect="16 / 9"
              submitLabel={t("admin.jumbotronChange")}
            />
          </AdminSection>
        )}
        <AdminSection id="activity-title" title={t("admin.activityTitle")} description={t("admin.activityDescription")} collapsible defaultOpen={false}>
          <ActivityList items={activity} timeZone={timeZone} />
        </AdminSection>
      </div>

      {manages && (
        <AdminSection
          id="site-address-title"
          title={t("admin.siteAddress")}
          description={
            siteAddress.fixed
              ? t("admin.siteAddressFixedDescription", { origin: siteAddress.origin })
              : siteAddress.confirmed
                ? t("admin.siteAddressConfirmedDescription", { origin: siteAddress.origin })
                : t("admin.siteAddressUnconfirmedDescription")
          }
        >
          {!siteAddress.fixed && (
            <AdminForm formId="site-origin" intent="site-origin" className="admin-form admin-form--inline" aria-label={t("admin.siteAddressFormLabel")}>
              <Field name="origin" label={t("admin.siteAddress")} type="url" {...limits.origin} defaultValue={siteAddress.origin} />
              <FormStatus />
              <SubmitButton pendingLabel={t("admin.saving")}>{t("admin.siteAddressConfirm")}</SubmitButton>
            </AdminForm>
          )}
        </AdminSection>
      )}

      {/* While the settings were never saved, the admin pages' banner links there instead. */}
      {manages && !settingsPending && (
        <p className="admin-note">
          <Link to="/settings-admin">{t("admin.settingsDashboardLink")}</Link>
        </p>
      )}

      <AdminSection
        id="rewind-title"
        title={t("admin.rewind")}
        description={
          // "0 KB (0 segments)" said nothing: say that nothing is recorded, and why.
          rewindStorage.hours === "0"
            ? t("admin.rewindOff")
            : rewindStorage.segments === "0"
              ? t("admin.rewindNothingYet", rewindStorage)
              : t("admin.rewindStorage", rewindStorage)
        }
        actions={
          <Link to="/recordings-admin" className="button button--ghost">
            {t("admin.rewindRecordings")}
          </Link>
        }
      >
        {null}
      </AdminSection>

      <AdminSection
        id="cards-title"
        collapsible
        title={t("admin.dashboardCards")}
        description={t("admin.dashboardCardsDescription")}
        actions={
          <Link to="/cardlistmoreadmin" className="button button--ghost">
            {t("admin.dashboardCardsAll")}
          </Link>
        }
      >
        <CardImageTiles cards={cards} withDelete={false} />
      </AdminSection>

      <AdminSection
        id="crew-images-title"
        collapsible
        title={t("admin.crewImages")}
        description={t("admin.crewImagesDescription", { count: crewImages.length })}
      >
        <AdminForm formId="crew-add" intent="add-crew-image" className="admin-form admin-form--inline" aria-label={t("admin.crewImageAdd")}>
          <ImagePicker name="image" label={t("admin.crewImageAdd")} aspect="3 / 4" compact />
          <FormStatus />
          <SubmitButton pendingLabel={t("admin.adding")}>{t("admin.addImage")}</SubmitButton>
        </AdminForm>
        <CrewImageTiles images={crewImages} editing={refusedCrewImage ?? editing} />
      </AdminSection>
    </AdminPage>
  );
}
