import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { AdminList } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { Field } from "~/components/admin/Field";
import { EmbedFrame } from "~/components/EmbedFrame";
import { useLiveData } from "~/hooks/useRealtime";
import { requestTranslator } from "~/i18n/language.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/translate";
import { listChartFrames } from "~/models/chart.server";
import { addEmbed, deleteEmbed } from "~/models/embeds.server";
import { requireStaff } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";

export const meta: MetaFunction = ({ matches }) => [{ title: metaTranslator(matches).t("chart.adminMetaTitle") }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, "content");
  return {
    frames: await listChartFrames(),
    allowedHosts: getConfig().embedAllowedHosts.map((host) => host.replace(/^\*\./, "")),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireStaff(request, "content");
  const { t } = await requestTranslator(request);
  return answerAdminForm(request, {
    "add-embed": async ({ fields }) => {
      const result = await addEmbed(fields.code ?? "", actor);
      if (result.status === "refused") return { ok: false, message: result.error, errors: { code: result.error } };
      if (result.status === "ignored") return { ok: true, message: t("chart.nothingToAdd") };
      return { ok: true, message: t("chart.added") };
    },
    "delete-embed": pageScoped(async ({ fields }) => {
      const deleted = await deleteEmbed(fields.id ?? "", actor);
      return deleted ? { ok: true, message: t("chart.embedDeleted") } : { ok: false, message: t("chart.alreadyDeleted") };
    }),
  });
}

export default function ChartContentAdmin() {
  const { frames, allowedHosts } = useLoaderData<typeof loader>();
  useLiveData("embeds:changed");
  const { t } = useT();
  return (
    <AdminPage title={t("chart.adminTitle")} intro={t("chart.adminIntro")}>
      <div className="admin-columns">
        <AdminSection id="embed-add-title" title={t("chart.addAnEmbed")}>
          <AdminForm formId="embed-form" intent="add-embed" className="admin-form" aria-label={t("chart.addAnEmbed")}>
            <Field
              name="code"
              label={t("chart.embedCode")}
              multiline
              rows={6}
              className="admin-input admin-input--code"
              // eslint-disable-next-line no-restricted-syntax -- an example of markup to paste, the same in every language
              placeholder={'<iframe src="https://open.spotify.com/embed/episode/…" width="100%" height="152"></iframe>'}
              hint={t("chart.embedHint", { hosts: allowedHosts.join(", ") })}
              spellCheck={false}
            />
            <FormStatus />
            <div className="admin-form__actions">
              <SubmitButton pendingLabel={t("chart.adding")}>{t("chart.addEmbed")}</SubmitButton>
            </div>
          </AdminForm>
        </AdminSection>
        <AdminSection id="embed-list-title" title={t("chart.onTheChart")} description={t("chart.listDescription", { count: frames.length })}>
          <AdminList items={frames} emptyIcon="radio" empty={t("chart.emptyAdmin")}>
            {(frame) => (
              <li key={frame.id} className="admin-embed">
                <EmbedFrame frame={frame} />
                <div className="admin-embed__meta">
                  <p className="caption">{new URL(frame.src).hostname}</p>
                  <DeleteForm
                    formId={`delete-${frame.id}`}
                    intent="delete-embed"
                    hidden={{ id: frame.id }}
                    confirm={t("chart.deleteConfirm")}
                    readAlso={t("chart.deleteReadAlso", { title: frame.title })}
                  />
                </div>
              </li>
            )}
          </AdminList>
        </AdminSection>
      </div>
    </AdminPage>
  );
}
