import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminForm, FormStatus, SubmitButton } from "~/components/admin/AdminForm";
import { AdminList } from "~/components/admin/AdminList";
import { AdminPage, AdminSection } from "~/components/admin/AdminPage";
import { DeleteForm } from "~/components/admin/DeleteForm";
import { Field } from "~/components/admin/Field";
import { EmbedFrame } from "~/components/EmbedFrame";
import { useLiveData } from "~/hooks/useRealtime";
import { listChartFrames } from "~/models/chart.server";
import { addEmbed, deleteEmbed } from "~/models/embeds.server";
import { requireAdmin } from "~/services/admin-session.server";
import { answerAdminForm, pageScoped } from "~/services/admin-forms.server";
import { getConfig } from "~/services/config.server";

export const meta: MetaFunction = () => [{ title: "Chart · Admin" }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {
    frames: await listChartFrames(),
    allowedHosts: getConfig().embedAllowedHosts.map((host) => host.replace(/^\*\./, "")),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireAdmin(request);
  const actor = { adminSessionId: session.id };
  return answerAdminForm(request, {
    "add-embed": async ({ fields }) => {
      const result = await addEmbed(fields.code ?? "", actor);
      if (result.status === "refused") return { ok: false, message: result.error, errors: { code: result.error } };
      if (result.status === "ignored") return { ok: true, message: "Nothing to add: the embed code was empty." };
      return { ok: true, message: "Embed added to the chart." };
    },
    "delete-embed": pageScoped(async ({ fields }) => {
      const deleted = await deleteEmbed(fields.id ?? "", actor);
      return deleted ? { ok: true, message: "Embed deleted from the chart." } : { ok: false, message: "That embed was already deleted." };
    }),
  });
}

export default function ChartContentAdmin() {
  const { frames, allowedHosts } = useLoaderData<typeof loader>();
  useLiveData("embeds:changed");
  return (
    <AdminPage
      title="Chart"
      intro="Paste a player's embed code to add it to the public CHART page. Only the player itself is kept, and it always runs sandboxed."
    >
      <div className="admin-columns">
        <AdminSection id="embed-add-title" title="Add an embed">
          <AdminForm formId="embed-form" intent="add-embed" className="admin-form" aria-label="Add an embed">
            <Field
              name="code"
              label="Embed code"
              multiline
              rows={6}
              className="admin-input admin-input--code"
              placeholder={'<iframe src="https://open.spotify.com/embed/episode/…" width="100%" height="152"></iframe>'}
              hint={`Accepted: a single <iframe> with an https address from ${allowedHosts.join(", ")}.`}
              spellCheck={false}
            />
            <FormStatus />
            <div className="admin-form__actions">
              <SubmitButton pendingLabel="Adding…">Add embed</SubmitButton>
            </div>
          </AdminForm>
        </AdminSection>
        <AdminSection
          id="embed-list-title"
          title="On the chart"
          description={`${frames.length} embed${frames.length === 1 ? "" : "s"}, in the order listeners see them.`}
        >
          <AdminList items={frames} emptyIcon="radio" empty="No embeds yet. Add the first player with the form.">
            {(frame) => (
              <li key={frame.id} className="admin-embed">
                <EmbedFrame frame={frame} />
                <div className="admin-embed__meta">
                  <p className="caption">{new URL(frame.src).hostname}</p>
                  <DeleteForm
                    formId={`delete-${frame.id}`}
                    intent="delete-embed"
                    hidden={{ id: frame.id }}
                    confirm="Delete this embed from the chart?"
                    readAlso={` embed ${frame.title}`}
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
