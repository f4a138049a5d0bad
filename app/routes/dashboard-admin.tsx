import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { ActivityList } from "~/components/admin/ActivityList";
import { AdminForm, FormStatus, SubmitButton, type AdminResult } from "~/components/admin/AdminForm";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { CardImageTiles } from "~/components/admin/CardImageTiles";
import { CrewImageTiles } from "~/components/admin/CrewImageTiles";
import { ImagePicker } from "~/components/admin/ImagePicker";
import { Field } from "~/components/admin/Field";
import { ReplaceImageForm } from "~/components/admin/ReplaceImageForm";
import { StationEmailPrompt } from "~/components/admin/StationEmailPrompt";
import { useLiveData } from "~/hooks/useRealtime";
import { listRecentActivity } from "~/models/activity.server";
import { cardImageHandlers, listCardImages } from "~/models/episodes.server";
import { needsStationEmail, saveStationEmail, StationEmailError } from "~/models/feed-identity.server";
import { addCrewImage, deleteCrewImage, listCrewImages, moveCrewImage, moveCrewImageTo, replaceCrewImage } from "~/models/crew.server";
import { rewindUsage } from "~/models/rewind.server";
import { getSiteImage, replaceSiteImage } from "~/models/site-images.server";
import { canonicalOrigin, confirmSiteOrigin, SiteOriginError } from "~/models/site-origin.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";
import { formatBytes } from "~/services/uploads.server";

export const meta: MetaFunction = () => [{ title: "Dashboard · Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [jumbotron, cards, crewImages, activity, askStationEmail, rewind] = await Promise.all([
    getSiteImage("jumbotron"),
    listCardImages(5),
    listCrewImages(),
    listRecentActivity(15),
    needsStationEmail(),
    rewindUsage(),
  ]);
  // The site address: PUBLIC_URL, or the one confirmed here (prefilled from this admin's own request).
  // canonicalOrigin() is PUBLIC_URL's origin when that is set, else the confirmed one (or null).
  const canonical = await canonicalOrigin();
  const siteAddress = { fixed: Boolean(getConfig().publicUrl), origin: canonical ?? new URL(request.url).origin, confirmed: canonical !== null };
  // The one crew picture whose controls are open (see CrewImageTiles).
  const editing = new URL(request.url).searchParams.get("edit");
  const rewindStorage = `${formatBytes(rewind.bytes)} of storage for the last ${getConfig().rewindHours} hours of the live stream (${rewind.segments} segments).`;
  return { jumbotron, cards, crewImages, activity, askStationEmail, timeZone: getConfig().stationTimezone, siteAddress, editing, rewindStorage };
}

const imageRequired = { ok: false, message: "Choose an image first.", errors: { image: "Choose an image first." } };

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  return answerAdminForm(request, {
    ...cardImageHandlers(actor),
    "site-origin": async ({ fields }) => {
      if (getConfig().publicUrl) return { ok: false, message: "PUBLIC_URL sets the site address on this station." };
      try {
        return { ok: true, message: `Site address confirmed: ${await confirmSiteOrigin(fields.origin ?? "", actor)}` };
      } catch (error) {
        if (!(error instanceof SiteOriginError)) throw error;
        return { ok: false, message: error.message, errors: { origin: error.message } };
      }
    },
    "save-station-email": async ({ fields }) => {
      try {
        const email = await saveStationEmail(fields.email ?? "", actor);
        return { ok: true, message: `The podcast feed now names ${email} as its owner.` };
      } catch (error) {
        if (!(error instanceof StationEmailError)) throw error;
        return { ok: false, message: "Nothing was saved.", errors: { email: error.message } };
      }
    },
    "replace-jumbotron": async ({ files }) => {
      if (!files.image) return imageRequired;
      await replaceSiteImage("jumbotron", files.image, actor);
      return { ok: true, message: "Jumbotron image changed." };
    },
    "add-crew-image": async ({ files }) => {
      if (!files.image) return imageRequired;
      const key = await addCrewImage(files.image, actor);
      return { ok: true, message: `Added ${key} at the end of the crew slider.` };
    },
    "replace-crew-image": async ({ fields, files }) => {
      if (!files.image) return imageRequired;
      await replaceCrewImage(fields.key ?? "", files.image, actor);
      return { ok: true, message: `${fields.key} replaced.` };
    },
    "delete-crew-image": pageScoped(async ({ fields }) => {
      await deleteCrewImage(fields.key ?? "", actor);
      return { ok: true, message: `${fields.key} deleted from the crew slider.` };
    }),
    "move-crew-image": pageScoped(async ({ fields }) => {
      const moved = await moveCrewImage(fields.key ?? "", fields.direction === "up" ? -1 : 1, actor);
      return moved
        ? { ok: true, message: `${fields.key} moved ${fields.direction === "up" ? "up" : "down"}.` }
        : { ok: false, message: `${fields.key} is already ${fields.direction === "up" ? "first" : "last"}.` };
    }),
    "move-crew-image-to": pageScoped(async ({ fields }) => {
      const position = Number(fields.position);
      const moved = await moveCrewImageTo(fields.key ?? "", position, actor);
      return moved ? { ok: true, message: `${fields.key} moved to #${position}.` } : { ok: false, message: `${fields.key} could not be moved there.` };
    }),
  });
}

export default function DashboardAdmin() {
  const { jumbotron, cards, crewImages, activity, askStationEmail, timeZone, siteAddress, editing, rewindStorage } = useLoaderData<typeof loader>();
  useLiveData("images:changed", "events:changed", "embeds:changed");
  // A refused replacement keeps that picture's panel open so its message shows where it was sent
  // from, also without JavaScript (whose post carries no ?edit=).
  const answer = useActionData<AdminResult | undefined>();
  const refusedCrewImage = answer && !answer.ok ? /^crew-(Crew\d+)$/.exec(answer.formId)?.[1] : undefined;
  return (
    <AdminPage
      title="Dashboard"
      intro="The pictures of the LISTEN page: the jumbotron, the newest podcast cards and the crew slider. Changes reach open pages within a second."
    >
      {askStationEmail && <StationEmailPrompt />}
      <div className="admin-columns">
        <AdminSection id="jumbotron-title" title="Jumbotron" collapsible>
          <ReplaceImageForm
            formId="jumbotron"
            intent="replace-jumbotron"
            label="New jumbotron image"
            current={jumbotron}
            currentAlt="Current jumbotron image"
            aspect="16 / 9"
            submitLabel="Change jumbotron"
          />
        </AdminSection>
        <AdminSection
          id="activity-title"
          title="Recent changes"
          description="Every admin change, with the admin session it came from."
          collapsible
          defaultOpen={false}
        >
          <ActivityList items={activity} timeZone={timeZone} />
        </AdminSection>
      </div>

      <AdminSection
        id="site-address-title"
        title="Site address"
        description={
          siteAddress.fixed
            ? `Links in feeds and shared pages use ${siteAddress.origin} (set by PUBLIC_URL).`
            : siteAddress.confirmed
              ? `Links in feeds and shared pages use ${siteAddress.origin}.`
              : "Confirm the address listeners use, once: until then links in feeds and shared pages follow each visitor's own address."
        }
      >
        {!siteAddress.fixed && (
          <AdminForm formId="site-origin" intent="site-origin" className="admin-form admin-form--inline" aria-label="Confirm the site address">
            <Field name="origin" label="Site address" type="url" required defaultValue={siteAddress.origin} />
            <FormStatus />
            <SubmitButton pendingLabel="Saving…">Confirm address</SubmitButton>
          </AdminForm>
        )}
      </AdminSection>

      <AdminSection
        id="rewind-title"
        title="Rewind"
        description={rewindStorage}
        actions={
          <Link to="/recordings-admin" className="button button--ghost">
            Show recordings
          </Link>
        }
      >
        {null}
      </AdminSection>

      <AdminSection
        id="cards-title"
        collapsible
        title="Latest podcast cards"
        description="The five newest cards shown on LISTEN."
        actions={
          <Link to="/cardlistmoreadmin" className="button button--ghost">
            All ten cards
          </Link>
        }
      >
        <CardImageTiles cards={cards} withDelete={false} />
      </AdminSection>

      <AdminSection
        id="crew-images-title"
        collapsible
        title="Crew slider images"
        description={`${crewImages.length} images in slider order. A new image is added at the end as the next Crew number.`}
      >
        <AdminForm formId="crew-add" intent="add-crew-image" className="admin-form admin-form--inline" aria-label="Add a crew image">
          <ImagePicker name="image" label={`Add a crew image`} aspect="3 / 4" compact />
          <FormStatus />
          <SubmitButton pendingLabel="Adding…">Add image</SubmitButton>
        </AdminForm>
        <CrewImageTiles images={crewImages} editing={refusedCrewImage ?? editing} />
      </AdminSection>
    </AdminPage>
  );
}
